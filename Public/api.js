// api.js — the Wayfinder v1 HTTP client: fetch for requests, EventSource for server push.
//
// Every call answers with the parsed JSON body, or throws one of two errors:
//   ProblemError — the server answered with an error status (usually application/problem+json:
//                  {title, status, code, detail, ...}); `status` and `problem` say what it was.
//   NetworkError — no answer at all (server down, connection lost): the caller may retry the very
//                  same request, with the same Idempotency-Key, so it is applied at most once.

/** The server answered, with an error. */
export class ProblemError extends Error {
  constructor(status, problem) {
    super(problem.title || `HTTP ${status}`);
    this.name = 'ProblemError';
    this.status = status;
    this.problem = problem;
  }
}

/** The server could not be reached, or the connection broke before the answer was read. */
export class NetworkError extends Error {
  constructor(message) {
    super(message || 'The connection was lost');
    this.name = 'NetworkError';
  }
}

/** A fresh key for one user action (`Idempotency-Key`). Works outside secure contexts too. */
export function newIdempotencyKey() {
  if (globalThis.crypto?.randomUUID) return crypto.randomUUID();
  const b = crypto.getRandomValues(new Uint8Array(16));
  b[6] = (b[6] & 0x0f) | 0x40;
  b[8] = (b[8] & 0x3f) | 0x80;
  const hex = Array.from(b, (x) => x.toString(16).padStart(2, '0')).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/**
 * The state shape this client reads (`Wayfinder-Shape`, `?shape=` on the event stream): in shape 2
 * `stack` holds the ids of screens that `navigation` holds, so no screen is sent twice.
 */
const SHAPE = '2';

/**
 * `state` with its `stack` as screens: in shape 2 the server sends their ids, each naming a screen
 * of `navigation`; a state already in shape 1 (an older server) is left as it is.
 */
export function resolveStack(state) {
  if (!state || !Array.isArray(state.stack) || !state.stack.some((s) => typeof s === 'string')) return state;
  const byId = new Map();
  const collect = (node) => {
    for (let n = node; n; n = n.modal) {
      for (const screen of n.screens ?? []) byId.set(screen.id, screen);
      for (const tab of n.tabs ?? []) collect(tab.root);
    }
  };
  collect(state.navigation);
  state.stack = state.stack.map((s) => (typeof s === 'string' ? byId.get(s) : s)).filter(Boolean);
  return state;
}

/** How many times one request is sent again after `409 version_ahead` (see `#request`). */
const VERSION_AHEAD_RETRIES = 4;

export class Api {
  /**
   * @param {string} base prefix for every path ('' = same origin as the page)
   * @param {string} components the component kinds this client renders, sent in the
   *   `Wayfinder-Components` header (and `?components=` on the event stream); '' sends nothing
   *   (the server then sends every kind it has)
   */
  constructor(base = '', components = '') {
    this.base = base;
    this.components = components;
    /** @type {{id: string, token: string} | null} */
    this.session = null;
  }

  /** POST /v1/sessions → {id, token, state}. `body`: {context, deepLink?}. */
  createSession(body) {
    return this.#request('POST', '/v1/sessions', { body, auth: false });
  }

  /** GET /v1/sessions/{id} → State. */
  getState() {
    return this.#request('GET', this.#sessionPath());
  }

  /** DELETE /v1/sessions/{id}. */
  deleteSession() {
    return this.#request('DELETE', this.#sessionPath());
  }

  /** POST .../routes → {state, transitions}. */
  route(route, params, key) {
    return this.#request('POST', `${this.#sessionPath()}/routes`, { body: { route, params }, key });
  }

  /** POST .../back → {state, transitions}. `screen`: the id of the screen the user saw on top. */
  back(screen, key) {
    return this.#request('POST', `${this.#sessionPath()}/back`, { body: screen ? { screen } : {}, key });
  }

  /** POST .../tab → {state, transitions}. */
  tab(tab, key) {
    return this.#request('POST', `${this.#sessionPath()}/tab`, { body: { tab }, key });
  }

  /** POST .../deeplinks → {state, transitions}. */
  deepLink(url, key) {
    return this.#request('POST', `${this.#sessionPath()}/deeplinks`, { body: { url }, key });
  }

  /** GET .../history?since=N → {revision, entries}: the session's journal, oldest first. */
  history(since = 0) {
    return this.#request('GET', `${this.#sessionPath()}/history?since=${since}`);
  }

  /** GET .../history?format=bundle → a replay bundle (for `wayfinder replay`). */
  bundle() {
    return this.#request('GET', `${this.#sessionPath()}/history?format=bundle`);
  }

  /** POST .../rewind {"revision"} with If-Match: the navigation as it was at `revision`. */
  rewind(revision, current) {
    return this.#request('POST', `${this.#sessionPath()}/rewind`, { body: { revision }, ifMatch: `"${current}"` });
  }

  /**
   * GET .../events as an EventSource. An EventSource cannot send headers, and the session's token
   * never goes into a URL: a short-lived ticket from POST .../events does (it opens this session's
   * stream for a minute, so the browser's own reconnections work; after that the stream closes and
   * the caller opens it again). `onState(state)` for every `state` event, `onOpen()` when
   * connected, `onError(closed)` when the stream broke: `closed` is true when the browser gave up
   * (it retries by itself otherwise).
   */
  openEvents({ onState, onOpen, onError }) {
    let source = null;
    let stopped = false;
    const components = this.components ? `&components=${encodeURIComponent(this.components)}` : '';
    const path = `${this.base}${this.#sessionPath()}/events`;
    this.#request('POST', `${this.#sessionPath()}/events`)
      .then((data) => {
        if (stopped) return;
        source = new EventSource(`${path}?ticket=${encodeURIComponent(data.ticket)}${components}&shape=${SHAPE}`);
        source.addEventListener('open', () => onOpen());
        source.addEventListener('error', () => onError(source.readyState === EventSource.CLOSED));
        source.addEventListener('state', (event) => {
          let state;
          try {
            state = JSON.parse(event.data);
          } catch {
            return; // a broken event is skipped; the next one carries the whole state again
          }
          onState(resolveStack(state));
        });
      })
      .catch(() => {
        stopped = true;
        onError(true);
      });
    return {
      close: () => {
        stopped = true;
        if (source) source.close();
      },
      get closed() {
        return stopped || (source !== null && source.readyState === EventSource.CLOSED);
      },
    };
  }

  #sessionPath() {
    if (!this.session) throw new Error('No session');
    return `/v1/sessions/${encodeURIComponent(this.session.id)}`;
  }

  async #request(method, path, { body, key, ifMatch, auth = true } = {}) {
    const headers = { Accept: 'application/json, application/problem+json' };
    if (body !== undefined) headers['Content-Type'] = 'application/json';
    if (auth) headers.Authorization = `Bearer ${this.session.token}`;
    if (key) headers['Idempotency-Key'] = key;
    if (ifMatch) headers['If-Match'] = ifMatch;
    if (this.components) headers['Wayfinder-Components'] = this.components;
    headers['Wayfinder-Shape'] = SHAPE;

    let response;
    let data = null;
    for (let attempt = 0; ; attempt += 1) {
      let text;
      try {
        response = await fetch(this.base + path, {
          method,
          headers,
          body: body === undefined ? undefined : JSON.stringify(body),
          cache: 'no-store',
        });
        text = await response.text();
      } catch (error) {
        throw new NetworkError(error?.message);
      }
      data = null;
      if (text) {
        try {
          data = JSON.parse(text);
        } catch {
          data = null;
        }
      }
      // A deploy is under way and a server of the older version answered: it changed nothing,
      // and the same request (same key) will reach a newer one shortly.
      if (response.status !== 409 || data?.code !== 'version_ahead' || attempt === VERSION_AHEAD_RETRIES) break;
      const seconds = Number(response.headers.get('Retry-After'));
      await new Promise((resolve) => setTimeout(resolve, 1000 * (seconds > 0 && seconds < 10 ? seconds : 1)));
    }
    if (!response.ok) {
      const problem = data && typeof data === 'object' ? data : {};
      throw new ProblemError(response.status, {
        ...problem,
        status: problem.status ?? response.status,
        title: problem.title || response.statusText || `HTTP ${response.status}`,
        code: problem.code || `http_${response.status}`,
      });
    }
    if (response.status === 204) return null;
    if (data === null) {
      throw new ProblemError(response.status, {
        status: response.status,
        title: 'The server sent an answer that is not JSON',
        code: 'unreadable_answer',
      });
    }
    if (data.navigation) resolveStack(data);
    else if (data.state?.navigation) resolveStack(data.state);
    return data;
  }
}

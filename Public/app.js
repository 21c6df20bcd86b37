// app.js — the Wayfinder thin web client.
//
// A Wayfinder client does two things: RENDER THE STATE, and POST THE USER'S ACTIONS. That is all;
// an iOS or Android client should read this file as its specification.
//
//   1. Get a session. Keep {id, token} (here: sessionStorage). On start, GET /v1/sessions/{id};
//      if it is gone (404), POST /v1/sessions {"context": {"platform": "web"}, "deepLink"?}.
//   2. Render `state.navigation` (render.js): stacks with a navigation bar and a back button, tabs
//      with a tab bar, modals (sheet or full screen) following the `modal` chain, and each screen's
//      components. The client knows no screen, route or flow by name. Every request names the
//      component kinds it renders (`Wayfinder-Components`; `?components=` on the event stream), so
//      a server of a later version sends fallbacks for kinds this client does not know.
//   3. Post what the user does, with `Authorization: Bearer <token>` and a fresh `Idempotency-Key`
//      per action (a retry after a lost connection re-sends the same key, so it applies once):
//        button / list item        → POST .../routes {"route", "params"} (submit: + field values)
//        back, browser back, Esc   → POST .../back {"screen": <id of the screen on top>}
//        tab                       → POST .../tab {"tab"}
//        deep link (?link=...)     → POST .../deeplinks {"url"}
//   4. Show each answer's state, animated by its `transitions` (motion.js).
//   5. Listen to GET .../events (server push): show any state newer than the one on screen.
//   6. Show problems (application/problem+json) in a banner; when the connection is lost, say so,
//      retry, and recover by itself when the server is back.
//      `409 version_ahead` (an older server during a deploy) is sent again after its Retry-After.

import { Api, NetworkError, ProblemError, newIdempotencyKey } from './api.js';
import { COMPONENTS, collectDrafts, renderScene, topScreen } from './render.js';
import { animateTransitions, settle } from './motion.js';
import { renderInspector } from './inspector.js';
import { Timeline } from './timeline.js';

const SESSION_KEY = 'wayfinder.session';
const INSPECTOR_KEY = 'wayfinder.inspector';
const LOG_LIMIT = 100;

const root = document.documentElement;
const $ = (id) => document.getElementById(id);
const ui = {
  stage: $('stage'),
  phone: $('phone'),
  problem: $('problem'),
  problemCode: $('problem-code'),
  problemTitle: $('problem-title'),
  problemDetail: $('problem-detail'),
  connection: $('connection'),
  inspector: $('inspector'),
  inspectorBody: $('inspector-body'),
  inspectorToggle: $('inspector-toggle'),
  sessionMeta: $('session-meta'),
  live: $('live'),
};

// The components this client renders; `?components=heading,text,...` previews the app as an
// older client that renders only those (the server sends it fallbacks).
const api = new Api('', new URLSearchParams(location.search).get('components') ?? COMPONENTS);
const reducedMotion = matchMedia('(prefers-reduced-motion: reduce)');

let shown = null; // the State on screen
let inFlight = null; // the user action being sent: {label, key, send(key)}
let pushedWhileBusy = null; // the newest pushed state that arrived while an action was in flight
let events = null; // the open event stream
const connection = { fetch: true, events: true };
let retryTimer = 0;
let retryDelay = 500;
let eventsTimer = 0;
let eventsDelay = 1000;
let recovering = false;
let announced = '';
const log = []; // transitions shown, newest first
const timeline = new Timeline(api, () => shown && drawInspector(shown));
/** What the inspector's timeline buttons do: a rewind is an action like any other. */
const timelineActions = {
  rewind: (revision) => act(`rewind #${revision}`, () => api.rewind(revision, shown.revision)),
  download: () => timeline.download().catch((error) => (error instanceof NetworkError ? lost() : handleProblem(error))),
};

function drawInspector(state) {
  renderInspector(ui.inspectorBody, state, log, timeline.entries, timelineActions);
}

// ---------------------------------------------------------------------------------------------
// 3. The user's actions

/** What render.js calls when the user acts. */
const intents = {
  route: (route, params) => act(`route ${route}`, (key) => api.route(route, params ?? {}, key)),
  back: (screen) => act('back', (key) => api.back(screen, key)),
  tab: (tab) => act(`tab ${tab}`, (key) => api.tab(tab, key)),
};

/** Sends one action at a time; a second tap while one is on its way is ignored. */
function act(label, send) {
  if (inFlight || !shown) return false;
  run({ label, key: newIdempotencyKey(), send });
  return true;
}

async function run(action) {
  inFlight = action;
  setBusy(true);
  try {
    await attempt(action);
  } catch (error) {
    if (error instanceof NetworkError) return lost(); // keep `inFlight`: recover() re-sends it
    inFlight = null;
    await handleProblem(error);
  } finally {
    if (!inFlight) {
      setBusy(false);
      applyPushedState();
    }
  }
}

/** Sends an action (again, after a lost connection: same key) and shows its answer. */
async function attempt(action) {
  const answer = await action.send(action.key);
  inFlight = null;
  connectionRestored('fetch');
  hideProblem();
  present(answer.state, answer.transitions ?? [], action.label);
}

// ---------------------------------------------------------------------------------------------
// 2 and 4. Showing a state

/** Shows `state` unless an equal or newer one of the same session is already on screen. */
function present(state, transitions = [], source = '') {
  if (!state || typeof state !== 'object') return false;
  if (shown && shown.session === state.session && state.revision <= shown.revision) return false;

  settle();
  const oldScene = ui.stage.querySelector(':scope > .scene');
  const previousTop = topScreen(shown)?.id ?? null;
  const focus = rememberFocus();
  const drafts = oldScene ? collectDrafts(oldScene) : new Map();
  const scrollTop = oldScene?.querySelector('[data-top="true"] > .content')?.scrollTop ?? 0;

  const scene = renderScene(state, intents, { drafts });
  ui.stage.replaceChildren(scene);
  const sessionChanged = shown?.session !== state.session;
  shown = state;

  const top = topScreen(state);
  const topChanged = top?.id !== previousTop;
  const moves = transitions.length ? transitions : topChanged && oldScene && !sessionChanged ? [{ op: 'refresh' }] : [];
  animateTransitions(ui.stage, oldScene, scene, moves, { reduced: reducedMotion.matches });

  if (topChanged) {
    if (previousTop !== null || focus.inside) scene.querySelector('[data-top="true"] .nav-title')?.focus({ preventScroll: true });
  } else {
    const content = scene.querySelector('[data-top="true"] > .content');
    if (content) content.scrollTop = scrollTop;
    restoreFocus(focus, scene);
  }

  for (const t of transitions) log.unshift({ revision: state.revision, op: t.op, screens: t.screens, tab: t.tab, source });
  if (!transitions.length && source) log.unshift({ revision: state.revision, op: source === 'event' ? 'external' : source, screens: [] });
  log.length = Math.min(log.length, LOG_LIMIT);

  document.title = top?.title ? `${top.title} — Wayfinder` : 'Wayfinder';
  root.dataset.revision = String(state.revision);
  root.dataset.ready = 'true';
  ui.sessionMeta.textContent = `session ${String(state.session ?? '').slice(0, 8)}… · rev ${state.revision}`;
  announceNotices(scene, topChanged);
  drawInspector(state);
  timeline.update(state);
  syncHistory(state);
  return true;
}

const FOCUSABLE = 'button, input, textarea, select, a[href], [tabindex]';

/** Where focus is: by id, else by position among the scene's focusable elements. */
function rememberFocus() {
  const el = document.activeElement;
  const inside = Boolean(el && ui.stage.contains(el));
  if (!inside) return { inside };
  const scene = ui.stage.querySelector(':scope > .scene');
  const index = scene ? [...scene.querySelectorAll(FOCUSABLE)].indexOf(el) : -1;
  const selection = 'selectionStart' in el ? safeSelection(el) : null;
  return { inside, id: el.id || null, index, selection };
}

function safeSelection(el) {
  try {
    return el.selectionStart === null ? null : [el.selectionStart, el.selectionEnd];
  } catch {
    return null;
  }
}

/** After a re-render of the same screen, focus goes back where it was. */
function restoreFocus(focus, scene) {
  if (!focus.inside) return;
  let el = focus.id ? document.getElementById(focus.id) : null;
  if (!el && focus.index >= 0) el = scene.querySelectorAll(FOCUSABLE)[focus.index] ?? null;
  if (!el || !scene.contains(el)) return;
  el.focus({ preventScroll: true });
  if (focus.selection) {
    try {
      el.setSelectionRange(...focus.selection);
    } catch {
      /* not a text control */
    }
  }
}

/** Notices on the top screen are read out by screen readers (aria-live region). */
function announceNotices(scene, topChanged) {
  const text = [...scene.querySelectorAll('[data-top="true"] [data-component="notice"]')].map((n) => n.textContent).join(' ');
  if (text === announced && !topChanged) return;
  announced = text;
  ui.live.textContent = '';
  if (text) requestAnimationFrame(() => (ui.live.textContent = text));
}

function setBusy(busy) {
  root.dataset.busy = String(busy);
  ui.phone.setAttribute('aria-busy', String(busy));
}

// ---------------------------------------------------------------------------------------------
// Browser history: one entry per screen above the first, so the browser's back button posts `back`.

let historyDepth = Number.isInteger(history.state?.wayfinderDepth) ? history.state.wayfinderDepth : 0;
let ignoredPops = 0;
history.replaceState({ ...(history.state ?? {}), wayfinderDepth: historyDepth }, '');

function syncHistory(state) {
  const wanted = Math.max(0, (state.stack?.length ?? 1) - 1);
  while (historyDepth < wanted) {
    historyDepth += 1;
    history.pushState({ wayfinderDepth: historyDepth }, '');
  }
  if (historyDepth > wanted) {
    const steps = historyDepth - wanted;
    historyDepth = wanted;
    ignoredPops += 1;
    history.go(-steps);
  }
}

addEventListener('popstate', (event) => {
  const depth = Number.isInteger(event.state?.wayfinderDepth) ? event.state.wayfinderDepth : 0;
  if (ignoredPops > 0) {
    ignoredPops -= 1;
    historyDepth = depth;
    return;
  }
  const wentBack = depth < historyDepth;
  historyDepth = depth;
  const top = topScreen(shown);
  // The server cannot go forward; and an action already on its way wins. Put the entries back.
  if (!wentBack || !top || !act('back', (key) => api.back(top.id, key))) {
    if (shown) syncHistory(shown);
  }
});

// Escape closes the modal on top (the same as its close button).
addEventListener('keydown', (event) => {
  if (event.key !== 'Escape' || event.defaultPrevented || !shown?.navigation?.modal) return;
  const top = topScreen(shown);
  if (!top) return;
  event.preventDefault();
  intents.back(top.id);
});

// ---------------------------------------------------------------------------------------------
// 1. The session

function loadSession() {
  try {
    const stored = JSON.parse(sessionStorage.getItem(SESSION_KEY) ?? 'null');
    return stored?.id && stored?.token ? { id: stored.id, token: stored.token } : null;
  } catch {
    return null;
  }
}

function saveSession(session) {
  api.session = session;
  if (session) sessionStorage.setItem(SESSION_KEY, JSON.stringify(session));
  else sessionStorage.removeItem(SESSION_KEY);
}

/** The context of a new session: the web platform, or what the page's URL asks for. */
function newSessionContext() {
  const query = new URLSearchParams(location.search);
  const context = { platform: query.get('platform') || 'web' };
  if (query.get('variant')) context.variant = query.get('variant');
  return context;
}

async function boot() {
  const link = new URLSearchParams(location.search).get('link');
  saveSession(loadSession());
  if (api.session) {
    try {
      present(await api.getState(), [], 'resume');
    } catch (error) {
      if (!(error instanceof ProblemError) || (error.status !== 404 && error.status !== 401)) throw error;
      saveSession(null); // expired or deleted: start again
    }
  }
  if (!api.session) {
    await startSession(link);
  } else if (link) {
    dropLinkFromUrl();
    openEvents();
    await run({ label: 'deep link', key: newIdempotencyKey(), send: (key) => api.deepLink(link, key) });
    return;
  }
  dropLinkFromUrl();
  openEvents();
}

async function startSession(link) {
  const context = newSessionContext();
  let created;
  try {
    created = await api.createSession(link ? { context, deepLink: link } : { context });
  } catch (error) {
    if (!(error instanceof ProblemError) || !link) throw error;
    showProblem(error.problem); // e.g. unknown_deeplink: no session was made; start without the link
    created = await api.createSession({ context });
  }
  saveSession({ id: created.id, token: created.token });
  present(created.state, [], 'new session');
}

/** Starts over after the session vanished (expired, deleted, or the server lost it). */
async function restart() {
  events?.close();
  events = null;
  saveSession(null);
  await startSession(null);
  openEvents();
}

function dropLinkFromUrl() {
  const url = new URL(location.href);
  if (!url.searchParams.has('link')) return;
  url.searchParams.delete('link');
  history.replaceState(history.state, '', url.pathname + url.search + url.hash);
}

// ---------------------------------------------------------------------------------------------
// 5. Server push

function openEvents() {
  events?.close();
  clearTimeout(eventsTimer);
  if (!api.session) return;
  events = api.openEvents({
    onOpen: () => {
      eventsDelay = 1000;
      connectionRestored('events');
    },
    onState: (state) => {
      connectionRestored('events');
      if (state.session !== shown?.session) return;
      if (inFlight) pushedWhileBusy = state.revision > (pushedWhileBusy?.revision ?? -1) ? state : pushedWhileBusy;
      else present(state, [], 'event');
    },
    onError: (closed) => {
      connectionLost('events');
      if (closed) {
        // The browser gave up (the server refused the stream): check the session, then try again.
        eventsTimer = setTimeout(() => recover(), eventsDelay);
        eventsDelay = Math.min(eventsDelay * 2, 10000);
      }
    },
  });
}

function applyPushedState() {
  const state = pushedWhileBusy;
  pushedWhileBusy = null;
  if (state) present(state, [], 'event');
}

// ---------------------------------------------------------------------------------------------
// 6. Problems and lost connections

async function handleProblem(error) {
  if (!(error instanceof ProblemError)) {
    showProblem({ code: 'client_error', title: 'Something went wrong in this page', detail: String(error?.message ?? error) });
    return;
  }
  showProblem(error.problem);
  try {
    if (error.status === 404 || error.status === 401) await restart();
    else if (error.status === 409 || error.status === 412) present(await api.getState(), [], 'resync');
  } catch (next) {
    if (next instanceof NetworkError) lost();
    else if (next instanceof ProblemError) showProblem(next.problem);
  }
  if (shown) syncHistory(shown); // a refused browser-back gets its history entry back
}

function showProblem(problem) {
  ui.problemCode.textContent = problem.code ?? `http_${problem.status ?? ''}`;
  ui.problemTitle.textContent = problem.title ?? 'Error';
  const detail = problem.detail && problem.detail !== problem.title ? problem.detail : '';
  ui.problemDetail.textContent = detail;
  ui.problemDetail.hidden = !detail;
  ui.problem.dataset.code = problem.code ?? '';
  ui.problem.hidden = false;
}

function hideProblem() {
  ui.problem.hidden = true;
}

function connectionLost(channel) {
  connection[channel] = false;
  updateConnectionBanner();
}

function connectionRestored(channel) {
  connection[channel] = true;
  if (channel === 'fetch') {
    retryDelay = 500;
    clearTimeout(retryTimer);
    retryTimer = 0;
  }
  updateConnectionBanner();
}

function updateConnectionBanner() {
  const ok = connection.fetch && connection.events;
  ui.connection.hidden = ok;
  root.dataset.connection = ok ? 'online' : 'lost';
}

/** A request got no answer: say so and try again, with growing pauses, until the server is back. */
function lost() {
  connectionLost('fetch');
  if (!retryTimer) retryTimer = setTimeout(recover, retryDelay);
}

async function recover() {
  clearTimeout(retryTimer);
  retryTimer = 0;
  if (recovering) return;
  recovering = true;
  try {
    if (!shown) {
      await boot();
    } else if (inFlight) {
      await attempt(inFlight); // the same Idempotency-Key: applied at most once
      setBusy(false);
    } else {
      present(await api.getState(), [], 'resync');
    }
    if (!inFlight) connectionRestored('fetch');
    if (!connection.events || !events || events.closed) openEvents();
    applyPushedState();
  } catch (error) {
    if (error instanceof NetworkError) {
      connectionLost('fetch');
      retryDelay = Math.min(retryDelay * 2, 5000);
      retryTimer = setTimeout(recover, retryDelay);
    } else {
      if (inFlight) {
        inFlight = null;
        setBusy(false);
      }
      connectionRestored('fetch');
      await handleProblem(error);
      if (!events || events.closed) openEvents();
    }
  } finally {
    recovering = false;
  }
}

// ---------------------------------------------------------------------------------------------
// The page around the phone: banners, inspector, restart

$('problem-dismiss').addEventListener('click', hideProblem);
$('connection-retry').addEventListener('click', () => {
  retryDelay = 500;
  eventsDelay = 1000;
  recover();
});

function setInspector(open) {
  ui.inspector.hidden = !open;
  ui.inspectorToggle.setAttribute('aria-pressed', String(open));
  root.dataset.inspector = open ? 'open' : 'closed';
}

ui.inspectorToggle.addEventListener('click', () => {
  const open = ui.inspector.hidden;
  setInspector(open);
  inspectorPreference = open ? 'open' : 'closed';
  try {
    localStorage.setItem(INSPECTOR_KEY, inspectorPreference);
  } catch {
    /* storage unavailable: the choice lasts for this page only */
  }
});

$('restart').addEventListener('click', async () => {
  if (inFlight) return;
  const old = api.session;
  try {
    if (old) await api.deleteSession();
  } catch {
    /* already gone, or unreachable: a new session is made either way */
  }
  shown = null;
  log.length = 0;
  hideProblem();
  restart().catch((error) => (error instanceof NetworkError ? lost() : handleProblem(error)));
});

let inspectorPreference = null;
try {
  inspectorPreference = localStorage.getItem(INSPECTOR_KEY);
} catch {
  inspectorPreference = null;
}
// Until the user chooses, the inspector is open where there is room for it beside the phone.
const wide = matchMedia('(min-width: 960px)');
setInspector(inspectorPreference ? inspectorPreference === 'open' : wide.matches);
wide.addEventListener('change', () => {
  if (!inspectorPreference) setInspector(wide.matches);
});
setBusy(false);
root.dataset.animating = 'false';
updateConnectionBanner();

boot().catch((error) => (error instanceof NetworkError ? lost() : handleProblem(error)));

// timeline.js — the session's journal as the inspector shows it: entries fetched from
// GET .../history as states arrive (only the new ones), a rewind and a bundle download.

/** Keeps the journal entries of the session on screen; `onChange()` after each fetch. */
export class Timeline {
  constructor(api, onChange) {
    this.api = api;
    this.onChange = onChange;
    this.session = null;
    /** @type {Array<object>} journal entries, oldest first */
    this.entries = [];
    this.wanted = 0; // the newest revision seen on screen
    this.fetching = false;
  }

  /** A state was shown: fetch the entries up to its revision. */
  update(state) {
    if (state.session !== this.session) {
      this.session = state.session;
      this.entries = [];
    } else if (this.entries.length && this.entries[this.entries.length - 1].revision >= state.revision) {
      // A rewind or another client moved on: keep what is known up to this revision.
      this.entries = this.entries.filter((e) => e.revision <= state.revision);
    }
    this.wanted = state.revision;
    this.#fetch();
  }

  async #fetch() {
    if (this.fetching) return;
    this.fetching = true;
    try {
      while (this.newest() < this.wanted) {
        const session = this.session;
        const answer = await this.api.history(this.newest() + 1);
        if (session !== this.session) continue;
        const known = new Set(this.entries.map((e) => e.revision));
        this.entries.push(...(answer.entries ?? []).filter((e) => !known.has(e.revision)));
        this.entries.sort((a, b) => a.revision - b.revision);
        this.onChange();
        if (!answer.entries?.length) break; // the journal is off, or holds nothing newer
      }
    } catch {
      /* the inspector shows what it has; the next state fetches again */
    } finally {
      this.fetching = false;
    }
  }

  newest() {
    return this.entries.length ? this.entries[this.entries.length - 1].revision : 0;
  }

  /** Saves the session's replay bundle as a file. */
  async download() {
    const bundle = await this.api.bundle();
    const blob = new Blob([JSON.stringify(bundle)], { type: 'application/json' });
    const link = document.createElement('a');
    link.href = URL.createObjectURL(blob);
    link.download = `wayfinder-${String(this.session).slice(0, 8)}.json`;
    document.body.append(link);
    link.click();
    link.remove();
    setTimeout(() => URL.revokeObjectURL(link.href), 1000);
  }
}

/** One line of what an entry did: `route login`, `tab todos`, `rewind to #3`. */
export function describe(entry) {
  return (entry.actions ?? [])
    .map((a) => {
      switch (a.kind) {
        case 'route': return `route ${a.route}`;
        case 'tab': return `tab ${a.tab}`;
        case 'deepLink': return `link ${a.url}`;
        case 'effect': return `effect ${a.effect} ${a.failure ?? 'done'}`;
        case 'abandon': return `effect ${a.effect} dropped`;
        case 'rewind': return `rewind to #${a.revision}`;
        case 'migration': return `${a.rebuilt ? `rebuilt (${a.rebuilt})` : 'migrated'} to version ${a.to}`;
        default: return a.kind;
      }
    })
    .join(' · ');
}

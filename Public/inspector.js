// inspector.js — pure rendering of the developer inspector beside the phone: the coordinator tree,
// the navigation tree, the revision and context, the session's timeline (its journal) and the log
// of transitions. State in, DOM out.

import { h, topScreen } from './render.js';
import { describe } from './timeline.js';

/**
 * Fills `root` (the inspector's body) from a state, the transition log (newest first) and the
 * timeline's entries (oldest first); `actions.rewind(revision)` and `actions.download()` are
 * called from its buttons.
 */
export function renderInspector(root, state, log, timeline = [], actions = {}) {
  const top = topScreen(state);
  const sections = [
    section(
      'Session',
      'inspector-session',
      h(
        'dl',
        { class: 'kv' },
        pair('revision', h('span', { 'data-testid': 'inspector-revision' }, state.revision)),
        pair('top screen', top ? `${top.name} · ${top.id}` : '—'),
        pair('pending link', state.pendingDeepLink ?? '—'),
        ...Object.entries(state.context ?? {}).map(([key, value]) => pair(key, JSON.stringify(value))),
      ),
    ),
    section('Coordinators', 'inspector-coordinators', coordinatorTree(state.coordinators, top?.coordinator)),
    section('Navigation', 'inspector-navigation', navigationTree(state.navigation, top?.id)),
    section('Timeline', 'inspector-timeline', timelineList(timeline, state.revision, actions)),
    section('Transitions', 'inspector-log', transitionLog(log)),
  ];
  root.replaceChildren(...sections);
}

function section(title, testid, body) {
  return h('section', { class: 'inspector-section', 'data-testid': testid }, h('h2', {}, title), body);
}

function pair(key, value) {
  return [h('dt', {}, key), h('dd', {}, value)];
}

function coordinatorTree(root, activeId) {
  if (!root) return h('p', { class: 'muted' }, 'No coordinators');
  const item = (c) =>
    h(
      'li',
      { 'data-coordinator-id': c.id, class: c.id === activeId ? 'is-active' : null },
      h('span', { class: 'tree-flow' }, c.flow),
      ' ',
      h('span', { class: 'tree-id' }, c.id),
      c.children?.length ? h('ul', {}, c.children.map(item)) : null,
    );
  return h('ul', { class: 'tree' }, item(root));
}

function navigationTree(node, topId) {
  const screenItem = (s) =>
    h(
      'li',
      { class: s.id === topId ? 'is-active' : null },
      h('span', { class: 'tree-flow' }, s.name),
      ' ',
      h('span', { class: 'tree-id' }, s.id),
      s.presentation && s.presentation !== 'root' && s.presentation !== 'push'
        ? h('span', { class: 'tree-tag' }, s.presentation)
        : null,
    );
  const nodeItem = (n, label) => {
    if (!n) return null;
    const head = [label ? h('span', { class: 'tree-tag' }, label) : null, h('span', { class: 'tree-kind' }, n.kind), ' ', h('span', { class: 'tree-id' }, n.coordinator ?? '')];
    let children = [];
    if (n.kind === 'stack') children = (n.screens ?? []).map(screenItem);
    if (n.kind === 'tabs') {
      children = (n.tabs ?? []).map((t) =>
        h(
          'li',
          { class: t.id === n.selected ? 'is-selected' : null },
          h('span', { class: 'tree-tab' }, `${t.id === n.selected ? '● ' : '○ '}${t.id}`),
          h('ul', {}, nodeItem(t.root)),
        ),
      );
    }
    if (n.modal) children.push(nodeItem(n.modal, 'modal'));
    return h('li', {}, head, children.length ? h('ul', {}, children) : null);
  };
  return node ? h('ul', { class: 'tree' }, nodeItem(node)) : h('p', { class: 'muted' }, 'Nothing on screen');
}

/** Each journal entry: what did it, its transitions, the screens before and after; a rewind button. */
function timelineList(entries, current, actions) {
  const download = h('button', { type: 'button', class: 'tool-button', 'data-testid': 'download-bundle' }, 'Download bundle');
  download.addEventListener('click', () => actions.download?.());
  if (!entries.length) return [download, h('p', { class: 'muted' }, 'No journal entries')];
  const items = entries.map((entry, index) => {
    const before = index > 0 && entries[index - 1].revision === entry.revision - 1 ? entries[index - 1].screens ?? [] : null;
    const rewind = h(
      'button',
      { type: 'button', class: 'timeline-rewind', 'data-testid': `rewind-${entry.revision}`, disabled: entry.revision === current },
      'Rewind',
    );
    rewind.addEventListener('click', () => actions.rewind?.(entry.revision));
    return h(
      'li',
      { 'data-revision': entry.revision, class: entry.revision === current ? 'is-active' : null },
      h('span', { class: 'log-rev' }, `#${entry.revision}`),
      h('span', { class: 'timeline-action' }, describe(entry)),
      ...(entry.transitions ?? []).map((t) => h('span', { class: `log-op op-${t.op}` }, t.op)),
      h('span', { class: 'timeline-screens' }, `${before ? before.join(' › ') : '…'} → ${(entry.screens ?? []).join(' › ')}`),
      rewind,
    );
  });
  return [download, h('ol', { class: 'log timeline' }, items.reverse())];
}

function transitionLog(log) {
  if (!log.length) return h('p', { class: 'muted' }, 'No transitions yet');
  return h(
    'ol',
    { class: 'log', reversed: true },
    log.map((entry) =>
      h(
        'li',
        { 'data-op': entry.op },
        h('span', { class: 'log-rev' }, `#${entry.revision}`),
        h('span', { class: `log-op op-${entry.op}` }, entry.op),
        h('span', { class: 'log-screens' }, (entry.screens ?? []).join(' ')),
        entry.tab ? h('span', { class: 'tree-tag' }, `tab ${entry.tab}`) : null,
        entry.source ? h('span', { class: 'log-source' }, entry.source) : null,
      ),
    ),
  );
}

// render.js — pure rendering: a Wayfinder State in, DOM out.
//
// No network, no timers, no storage: the same state gives the same DOM. The caller passes
// `intents`, the only three things a user can do on a screen:
//   intents.route(route, params)  a button or a list item was activated
//   intents.back(screenId)        the back (or close) button of the top screen
//   intents.tab(tabId)            a tab bar item
// Everything shown — titles, buttons, routes, tabs — comes from the state. Nothing here knows the
// application's flows, screens or routes by name.
//
// Test hooks: data-testid on every part, data-screen-id / data-screen-name / data-top on screens,
// data-component on components, data-route on buttons, data-item-id on list items, data-tab on tabs.

const SVG_NS = 'http://www.w3.org/2000/svg';

/** Builds an element: h('div', {class: 'x', 'data-a': 1}, child, 'text', [more]). */
export function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs)) {
    if (value === null || value === undefined || value === false) continue;
    el.setAttribute(name, value === true ? '' : String(value));
  }
  appendAll(el, children);
  return el;
}

function appendAll(el, children) {
  for (const child of children.flat(Infinity)) {
    if (child === null || child === undefined || child === false) continue;
    el.append(child instanceof Node ? child : String(child));
  }
}

function svg(paths, attrs = {}) {
  const el = document.createElementNS(SVG_NS, 'svg');
  el.setAttribute('viewBox', '0 0 24 24');
  el.setAttribute('aria-hidden', 'true');
  el.setAttribute('focusable', 'false');
  for (const [name, value] of Object.entries(attrs)) el.setAttribute(name, value);
  for (const d of [paths].flat()) {
    const path = document.createElementNS(SVG_NS, 'path');
    path.setAttribute('d', d);
    el.append(path);
  }
  return el;
}

const CHEVRON_BACK = 'M15.5 4.5 8 12l7.5 7.5';
const CHEVRON_FORWARD = 'M9 5.5 15.5 12 9 18.5';
const CHECK = 'M6 12.5 10 16.5 18 8';

// Tab icons are named like SF Symbols ("house", "person.circle"): a small generic vocabulary,
// with the tab's initial as the fallback for any other name.
const ICONS = {
  house: 'M3.5 10.5 12 3.5l8.5 7v9a1 1 0 0 1-1 1H15v-6H9v6H4.5a1 1 0 0 1-1-1z',
  checklist: ['M3.5 6.5l1.5 1.5 2.5-3', 'M3.5 13.5l1.5 1.5 2.5-3', 'M10.5 6.5h10', 'M10.5 13.5h10', 'M10.5 19.5h10', 'M4.5 19.5h2'],
  'list.bullet': ['M4.5 6h.01', 'M4.5 12h.01', 'M4.5 18h.01', 'M9 6h11', 'M9 12h11', 'M9 18h11'],
  checkmark: 'M5 12.5 10 17.5 19 7',
  'checkmark.circle': ['M12 21a9 9 0 1 0 0-18 9 9 0 0 0 0 18z', 'M8 12.5l3 3 5-6'],
  person: ['M12 12a4 4 0 1 0 0-8 4 4 0 0 0 0 8z', 'M4 20.5a8 8 0 0 1 16 0'],
  'person.circle': ['M12 21a9 9 0 1 0 0-18 9 9 0 0 0 0 18z', 'M12 12.5a3 3 0 1 0 0-6 3 3 0 0 0 0 6z', 'M6.2 18.4a6.5 6.5 0 0 1 11.6 0'],
  'person.crop.circle': ['M12 21a9 9 0 1 0 0-18 9 9 0 0 0 0 18z', 'M12 12.5a3 3 0 1 0 0-6 3 3 0 0 0 0 6z', 'M6.2 18.4a6.5 6.5 0 0 1 11.6 0'],
  gear: ['M12 15a3 3 0 1 0 0-6 3 3 0 0 0 0 6z', 'M12 2.5v3M12 18.5v3M2.5 12h3M18.5 12h3M5.3 5.3l2.1 2.1M16.6 16.6l2.1 2.1M5.3 18.7l2.1-2.1M16.6 7.4l2.1-2.1'],
  gearshape: ['M12 15a3 3 0 1 0 0-6 3 3 0 0 0 0 6z', 'M12 2.5v3M12 18.5v3M2.5 12h3M18.5 12h3M5.3 5.3l2.1 2.1M16.6 16.6l2.1 2.1M5.3 18.7l2.1-2.1M16.6 7.4l2.1-2.1'],
  star: 'M12 3.5l2.6 5.6 6 .7-4.5 4.1 1.2 6-5.3-3-5.3 3 1.2-6L3.4 9.8l6-.7z',
  bell: ['M6 16.5V11a6 6 0 1 1 12 0v5.5l1.5 2h-15z', 'M10 20.5a2 2 0 0 0 4 0'],
  magnifyingglass: ['M10.5 17.5a7 7 0 1 0 0-14 7 7 0 0 0 0 14z', 'M15.5 15.5l5 5'],
  heart: 'M12 20s-7.5-4.6-7.5-10A4.5 4.5 0 0 1 12 7.3 4.5 4.5 0 0 1 19.5 10c0 5.4-7.5 10-7.5 10z',
  envelope: ['M3.5 6.5h17v11h-17z', 'M3.5 6.5 12 13l8.5-6.5'],
  calendar: ['M4 6h16v14H4z', 'M4 10h16', 'M8 3.5V7M16 3.5V7'],
  folder: 'M3.5 6.5a1 1 0 0 1 1-1h5l2 2h8a1 1 0 0 1 1 1v10a1 1 0 0 1-1 1h-15a1 1 0 0 1-1-1z',
};

// The names this client draws (docs/api.md lists them for app authors; a browser test compares).
export const TAB_ICON_NAMES = Object.keys(ICONS);

function tabIcon(name, title) {
  const base = String(name ?? '').replace(/\.fill$/, '');
  if (ICONS[base]) return svg(ICONS[base], { class: 'tab-icon' });
  const initial = String(title || name || '?').trim().charAt(0).toUpperCase() || '?';
  return h('span', { class: 'tab-icon tab-initial', 'aria-hidden': 'true' }, initial);
}

function slug(value) {
  return String(value ?? '').replace(/[^A-Za-z0-9_-]/g, '_');
}

// ---------------------------------------------------------------------------------------------
// Reading a state

/** The screens on the visible path of a navigation node, bottom to top (as `state.stack`). */
export function visiblePath(node) {
  const path = [];
  for (let n = node; n; n = n.modal) {
    if (n.kind === 'stack') path.push(...(n.screens ?? []));
    if (n.kind === 'tabs') {
      const tab = (n.tabs ?? []).find((t) => t.id === n.selected) ?? n.tabs?.[0];
      if (tab?.root) path.push(...visiblePath(tab.root));
    }
  }
  return path;
}

/** The screen on top: the last of `state.stack` (or of the navigation tree's visible path). */
export function topScreen(state) {
  if (!state) return null;
  const stack = Array.isArray(state.stack) && state.stack.length ? state.stack : visiblePath(state.navigation);
  return stack.at(-1) ?? null;
}

/** The navigation root followed by each modal over it, bottom to top. */
export function layers(navigation) {
  const chain = [];
  for (let n = navigation; n; n = n.modal) chain.push(n);
  return chain;
}

function firstScreen(node) {
  return visiblePath({ ...node, modal: null })[0] ?? null;
}

// ---------------------------------------------------------------------------------------------
// The scene: the root node and every modal over it, as stacked layers

/**
 * Renders the whole visible state: one layer for the navigation root, one per modal on its chain.
 * `options.drafts` (from `collectDrafts`) keeps what the user typed into a field the server has not
 * changed since, so a re-render never throws away input.
 */
export function renderScene(state, intents, options = {}) {
  const ctx = { intents, drafts: options.drafts ?? new Map(), topId: topScreen(state)?.id ?? null };
  const scene = h('div', { class: 'scene', 'data-testid': 'scene', 'data-revision': state.revision });
  const chain = layers(state.navigation);
  if (!chain.length) {
    scene.append(h('div', { class: 'layer layer-base' }, placeholder('Nothing to show')));
    return scene;
  }
  chain.forEach((node, index) => {
    const modal = index > 0;
    const key = modal ? `modal${index}` : 'root';
    const presentation = modal ? (firstScreen(node)?.presentation === 'fullScreen' ? 'fullScreen' : 'sheet') : 'root';
    const layer = h('div', {
      class: `layer ${modal ? 'layer-modal' : 'layer-base'}`,
      'data-testid': modal ? 'modal' : 'base-layer',
      'data-layer': key,
      'data-presentation': presentation,
    });
    const above = chain[index + 1];
    if (above) {
      layer.inert = true;
      layer.setAttribute('aria-hidden', 'true');
      layer.classList.add('is-covered');
    }
    const content = renderNode(node, ctx, key, { inModal: modal });
    if (modal) {
      if (presentation === 'sheet') layer.append(h('div', { class: 'backdrop', 'aria-hidden': 'true' }));
      const title = content.querySelector('[data-top="true"] .nav-title, .nav-title');
      const card = h('div', {
        class: 'modal-card',
        role: 'dialog',
        'aria-modal': 'true',
        'aria-labelledby': title?.id ?? null,
      });
      if (presentation === 'sheet') card.append(h('div', { class: 'grabber', 'aria-hidden': 'true' }));
      card.append(content);
      layer.append(card);
    } else {
      layer.append(content);
    }
    scene.append(layer);
  });
  return scene;
}

function renderNode(node, ctx, key, nav) {
  if (node?.kind === 'stack') return renderStack(node, ctx, key, nav);
  if (node?.kind === 'tabs') return renderTabs(node, ctx, key, nav);
  return placeholder(`Unsupported navigation node: ${node?.kind ?? 'none'}`);
}

function renderStack(node, ctx, key, nav) {
  const screens = Array.isArray(node.screens) ? node.screens : [];
  const el = h('section', {
    class: 'stack',
    'data-testid': 'stack',
    'data-stack-key': key,
    'data-coordinator': node.coordinator,
    'data-depth': screens.length,
  });
  const top = screens.at(-1);
  if (!top) {
    el.append(placeholder('Nothing to show'));
    return el;
  }
  const previous = screens.at(-2);
  // Back is offered when this stack has a screen to go back to, or when it is a modal (close).
  const back = previous
    ? { kind: 'back', label: previous.title || 'Back' }
    : nav.inModal
      ? { kind: 'close', label: 'Close' }
      : null;
  el.append(renderScreen(top, ctx, back));
  return el;
}

function renderTabs(node, ctx, key, nav) {
  const tabs = Array.isArray(node.tabs) ? node.tabs : [];
  const selected = tabs.find((t) => t.id === node.selected) ?? tabs[0];
  const el = h('div', {
    class: 'tabs',
    'data-testid': 'tabs',
    'data-coordinator': node.coordinator,
    'data-selected': selected?.id,
  });
  const content = h('div', { class: 'tab-content', 'data-tab-content': selected?.id });
  if (selected?.root) content.append(renderNode(selected.root, ctx, `${key}/${selected.id}`, nav));
  const bar = h('nav', { class: 'tab-bar', 'data-testid': 'tab-bar', 'aria-label': 'Tabs' });
  for (const tab of tabs) {
    const isSelected = tab === selected;
    const button = h(
      'button',
      {
        type: 'button',
        class: 'tab',
        'data-testid': 'tab',
        'data-tab': tab.id,
        'aria-current': isSelected ? 'page' : null,
      },
      tabIcon(tab.icon, tab.title),
      h('span', { class: 'tab-title' }, tab.title ?? tab.id),
    );
    button.addEventListener('click', () => ctx.intents.tab(tab.id));
    bar.append(button);
  }
  el.append(content, bar);
  return el;
}

function renderScreen(screen, ctx, back) {
  const titleId = `wf-${slug(screen.id)}-title`;
  const article = h('article', {
    class: 'screen',
    'data-testid': 'screen',
    'data-screen-id': screen.id,
    'data-screen-name': screen.name,
    'data-presentation': screen.presentation,
    'data-coordinator': screen.coordinator,
    'data-top': String(screen.id === ctx.topId),
    // A busy screen waits for an effect it asked for (the server's work, such as checking a
    // password): its buttons are disabled until a later state arrives.
    'data-screen-busy': screen.busy === true ? 'true' : null,
    'aria-busy': screen.busy === true ? 'true' : null,
    'aria-labelledby': titleId,
  });

  const leading = h('div', { class: 'nav-leading' });
  if (back) {
    const button = h(
      'button',
      {
        type: 'button',
        class: `nav-back nav-${back.kind}`,
        'data-testid': 'nav-back',
        'aria-label': back.kind === 'close' ? 'Close' : `Back to ${back.label}`,
      },
      back.kind === 'back' ? svg(CHEVRON_BACK, { class: 'nav-chevron' }) : null,
      h('span', { class: 'nav-back-label' }, back.label),
    );
    button.addEventListener('click', () => ctx.intents.back(screen.id));
    leading.append(button);
  }
  const bar = h(
    'header',
    { class: 'nav-bar', 'data-testid': 'nav-bar' },
    leading,
    h('h1', { class: 'nav-title', id: titleId, tabindex: '-1', 'data-testid': 'nav-title' }, screen.title ?? ''),
    h(
      'div',
      { class: 'nav-trailing' },
      screen.busy === true
        ? h('span', { class: 'screen-busy', role: 'status', 'data-testid': 'screen-busy' }, 'Working…')
        : null,
    ),
  );

  const content = h('form', { class: 'content', 'data-testid': 'screen-content', novalidate: true });
  // Enter in a text field clicks the first submit button (the browser's implicit submission);
  // the button's own click handler posts the route, so the form itself never submits.
  content.addEventListener('submit', (event) => event.preventDefault());
  const components = Array.isArray(screen.components) ? screen.components : [];
  components.forEach((component, index) => content.append(renderComponentSafely(component, index, screen, ctx)));
  article.append(bar, content);
  return article;
}

// ---------------------------------------------------------------------------------------------
// Components

const RENDERERS = {
  heading: renderHeading,
  text: renderText,
  notice: renderNotice,
  field: renderField,
  toggle: renderToggle,
  button: renderButton,
  list: renderList,
  image: renderImage,
};

/**
 * The component kinds this client renders (all at version 1), as the `Wayfinder-Components`
 * header names them: the server replaces any other kind with a fallback.
 */
export const COMPONENTS = Object.keys(RENDERERS).join(', ');

/** One component; an unknown or malformed one becomes a visible placeholder, never an exception. */
export function renderComponentSafely(component, index, screen, ctx) {
  const type = component?.type;
  const render = Object.hasOwn(RENDERERS, type) ? RENDERERS[type] : null;
  if (!render) return unsupported(type);
  try {
    return render(component, index, screen, ctx);
  } catch {
    return unsupported(`${type} (malformed)`);
  }
}

function unsupported(type) {
  return h(
    'div',
    { class: 'unsupported', 'data-component': 'unsupported', 'data-type': String(type ?? 'none'), role: 'note' },
    `Unsupported component: ${type ?? 'none'}`,
  );
}

function placeholder(text) {
  return h('div', { class: 'unsupported', 'data-component': 'unsupported', role: 'note' }, text);
}

function renderHeading(c) {
  return h('h2', { class: 'heading', 'data-component': 'heading' }, c.text ?? '');
}

function renderText(c) {
  return h('p', { class: 'text', 'data-component': 'text' }, c.text ?? '');
}

const NOTICE_ICONS = {
  error: ['M12 21a9 9 0 1 0 0-18 9 9 0 0 0 0 18z', 'M12 7.5v5.5', 'M12 16.5h.01'],
  info: ['M12 21a9 9 0 1 0 0-18 9 9 0 0 0 0 18z', 'M12 11v5.5', 'M12 7.5h.01'],
  success: ['M12 21a9 9 0 1 0 0-18 9 9 0 0 0 0 18z', 'M8 12.5l3 3 5-6'],
};

function renderNotice(c) {
  const style = Object.hasOwn(NOTICE_ICONS, c.style) ? c.style : 'info';
  return h(
    'div',
    { class: `notice notice-${style}`, 'data-component': 'notice', 'data-style': style },
    svg(NOTICE_ICONS[style], { class: 'notice-icon' }),
    h('span', { class: 'notice-text' }, c.text ?? ''),
  );
}

function draftValue(ctx, screen, name, serverValue) {
  const draft = ctx.drafts.get(screen.id)?.get(name);
  return draft && draft.server === serverValue ? draft.current : serverValue;
}

const FIELD_KINDS = {
  text: { type: 'text', autocomplete: 'off' },
  email: { type: 'email', autocomplete: 'email', autocapitalize: 'none', spellcheck: 'false', inputmode: 'email' },
  password: { type: 'password', autocomplete: 'current-password', autocapitalize: 'none', spellcheck: 'false' },
  multiline: null,
};

function renderField(c, index, screen, ctx) {
  const kind = Object.hasOwn(FIELD_KINDS, c.kind) ? c.kind : 'text';
  const id = `wf-${slug(screen.id)}-${slug(c.name)}-${index}`;
  const serverValue = c.value === null || c.value === undefined ? '' : String(c.value);
  const input =
    kind === 'multiline'
      ? h('textarea', { id, name: c.name, class: 'input', rows: 4 })
      : h('input', { id, name: c.name, class: 'input', ...FIELD_KINDS[kind] });
  input.value = draftValue(ctx, screen, c.name, serverValue);
  input.dataset.serverValue = serverValue;
  return h(
    'div',
    { class: `field field-${kind}`, 'data-component': 'field', 'data-name': c.name, 'data-kind': kind },
    h('label', { for: id, class: 'field-label' }, c.label ?? c.name),
    input,
  );
}

function renderToggle(c, index, screen, ctx) {
  const id = `wf-${slug(screen.id)}-${slug(c.name)}-${index}`;
  const serverValue = String(Boolean(c.value));
  const input = h('input', { id, name: c.name, type: 'checkbox', role: 'switch', class: 'switch' });
  input.checked = draftValue(ctx, screen, c.name, serverValue) === 'true';
  input.dataset.serverValue = serverValue;
  return h(
    'div',
    { class: 'toggle', 'data-component': 'toggle', 'data-name': c.name },
    h('label', { for: id, class: 'toggle-label' }, c.label ?? c.name),
    input,
  );
}

const BUTTON_STYLES = ['primary', 'secondary', 'destructive', 'link'];

function renderButton(c, index, screen, ctx) {
  const style = BUTTON_STYLES.includes(c.style) ? c.style : 'secondary';
  const action = c.action && typeof c.action === 'object' ? c.action : {};
  const button = h(
    'button',
    {
      type: c.submit ? 'submit' : 'button',
      class: `btn btn-${style}`,
      'data-component': 'button',
      'data-style': style,
      'data-route': action.route,
      'data-submit': String(Boolean(c.submit)),
      disabled: !action.route || c.disabled === true,
    },
    c.title ?? action.route ?? '',
  );
  button.addEventListener('click', (event) => {
    event.preventDefault();
    const params = { ...(action.params ?? {}) };
    // submit: the screen's field and toggle values are merged into the action's params.
    if (c.submit) Object.assign(params, collectValues(button.closest('form') ?? button.ownerDocument));
    ctx.intents.route(action.route, params);
  });
  return button;
}

function renderList(c, index, screen, ctx) {
  const items = Array.isArray(c.items) ? c.items : [];
  const list = h('ul', { class: 'list', 'data-component': 'list', role: 'list' });
  if (!items.length) list.append(h('li', { class: 'list-empty' }, 'No items'));
  for (const item of items) {
    const hasCheck = typeof item.checked === 'boolean';
    const inner = [
      hasCheck
        ? h('span', { class: `check${item.checked ? ' is-checked' : ''}`, 'aria-hidden': 'true' }, item.checked ? svg(CHECK) : null)
        : null,
      h(
        'span',
        { class: 'list-text' },
        h('span', { class: 'list-title' }, item.title ?? ''),
        item.subtitle ? h('span', { class: 'list-subtitle' }, item.subtitle) : null,
        hasCheck ? h('span', { class: 'visually-hidden' }, item.checked ? ', checked' : ', not checked') : null,
      ),
    ];
    const route = item.action?.route;
    const attrs = {
      class: `list-row${item.checked ? ' is-checked' : ''}`,
      'data-testid': 'list-item',
      'data-item-id': item.id,
      'data-checked': hasCheck ? String(item.checked) : null,
    };
    let row;
    if (route) {
      row = h(
        'button',
        { ...attrs, type: 'button', 'data-route': route, disabled: item.disabled === true },
        inner,
        svg(CHEVRON_FORWARD, { class: 'list-chevron' }),
      );
      row.addEventListener('click', () => ctx.intents.route(route, { ...(item.action.params ?? {}) }));
    } else {
      row = h('div', attrs, inner);
    }
    list.append(h('li', { class: 'list-item' }, row));
  }
  return list;
}

function renderImage(c) {
  const img = h('img', { src: c.url, alt: c.alt ?? '', decoding: 'async' });
  const figure = h('figure', { class: 'image', 'data-component': 'image' }, img);
  // A picture that cannot be loaded leaves its description, not a broken-image icon.
  img.addEventListener('error', () => {
    figure.classList.add('is-broken');
    img.replaceWith(h('span', { class: 'image-missing', role: 'img', 'aria-label': c.alt ?? '' }, c.alt ?? ''));
  });
  return figure;
}

/** The values of a screen's fields (strings) and toggles (booleans), by name. */
export function collectValues(root) {
  const values = {};
  for (const el of root.querySelectorAll('[data-component="field"] input, [data-component="field"] textarea')) {
    if (el.name) values[el.name] = el.value;
  }
  for (const el of root.querySelectorAll('[data-component="toggle"] input')) {
    if (el.name) values[el.name] = el.checked;
  }
  return values;
}

/**
 * What the user has typed, per screen id and field name, with the value the server sent for it.
 * `renderScene` keeps a draft only while the server still sends the same value.
 */
export function collectDrafts(scene) {
  const drafts = new Map();
  for (const screen of scene.querySelectorAll('[data-testid="screen"]')) {
    const fields = new Map();
    for (const el of screen.querySelectorAll('[data-component="field"] :is(input, textarea)')) {
      fields.set(el.name, { server: el.dataset.serverValue, current: el.value });
    }
    for (const el of screen.querySelectorAll('[data-component="toggle"] input')) {
      fields.set(el.name, { server: el.dataset.serverValue, current: String(el.checked) });
    }
    drafts.set(screen.dataset.screenId, fields);
  }
  return drafts;
}

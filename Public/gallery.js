// gallery.js — the component gallery (gallery.html): every component of the v1 vocabulary, and
// one this client does not know, rendered by render.js from a built-in state, with no server.
// What a user does is shown beside the phone instead of being posted.

import { renderScene } from './render.js';

const screen = (id, name, title, presentation, components) =>
  ({ id, name, title, coordinator: 'c3', presentation, routes: [], components });

const components = [
  { type: 'heading', text: 'Every component' },
  { type: 'text', text: 'This screen is drawn from a fixture state: each kind of component the v1 contract defines, and one it does not.' },
  { type: 'notice', style: 'error', text: 'The password must have at least 8 characters.' },
  { type: 'notice', style: 'info', text: 'Your changes are saved on the server.' },
  { type: 'notice', style: 'success', text: 'Password changed.' },
  { type: 'field', name: 'title', label: 'Title', value: 'Buy oat milk', kind: 'text' },
  { type: 'field', name: 'email', label: 'Email', value: '', kind: 'email' },
  { type: 'field', name: 'password', label: 'Password', value: '', kind: 'password' },
  { type: 'field', name: 'notes', label: 'Notes', value: 'Two cartons.', kind: 'multiline' },
  { type: 'toggle', name: 'completed', label: 'Completed', value: false },
  { type: 'button', title: 'Save', style: 'primary', action: { route: 'save', params: { id: '7' } }, submit: true },
  { type: 'button', title: 'Share', style: 'secondary', action: { route: 'share', params: {} } },
  { type: 'button', title: 'Delete', style: 'destructive', action: { route: 'delete', params: { id: '7' } } },
  { type: 'button', title: 'Forgot password?', style: 'link', action: { route: 'forgot', params: {} } },
  {
    type: 'list',
    items: [
      { id: '1', title: 'Buy milk', subtitle: 'Oat, two cartons', checked: false, action: { route: 'show', params: { id: '1' } } },
      { id: '2', title: 'Call the plumber', checked: true, action: { route: 'show', params: { id: '2' } } },
      { id: '3', title: 'A row without an action or a check' },
    ],
  },
  { type: 'image', url: 'favicon.svg', alt: 'The Wayfinder compass' },
  { type: 'chart', values: [1, 2, 3] },
];

const state = {
  session: 'gallery', revision: 1,
  context: { platform: 'web', onboarded: true, authenticated: true, user: 'a@b.c', variant: 'A' },
  coordinators: { id: 'c1', flow: 'app', children: [{ id: 'c2', flow: 'main', children: [{ id: 'c3', flow: 'gallery', children: [] }] }] },
  navigation: {
    kind: 'tabs', coordinator: 'c2', selected: 'gallery', modal: null,
    tabs: [
      { id: 'home', title: 'Home', icon: 'house', root: { kind: 'stack', coordinator: 'c4', screens: [screen('s1', 'home', 'Home', 'root', [])], modal: null } },
      {
        id: 'gallery', title: 'Gallery', icon: 'checklist',
        root: {
          kind: 'stack', coordinator: 'c3', modal: null,
          screens: [screen('s2', 'index', 'Components', 'root', []), screen('s3', 'gallery', 'Gallery', 'push', components)],
        },
      },
      { id: 'profile', title: 'Profile', icon: 'person.circle', root: { kind: 'stack', coordinator: 'c5', screens: [screen('s4', 'profile', 'Profile', 'root', [])], modal: null } },
      { id: 'more', title: 'More', icon: 'sparkles', root: { kind: 'stack', coordinator: 'c6', screens: [screen('s5', 'more', 'More', 'root', [])], modal: null } },
    ],
  },
  stack: [],
  pendingDeepLink: null,
};
state.stack = state.navigation.tabs[1].root.screens;

const seen = [];
const show = (intent) => {
  seen.push(intent);
  document.getElementById('intents').textContent = JSON.stringify(seen, null, 1);
};
const intents = {
  route: (route, params) => show({ route, params }),
  back: (screen) => show({ back: screen }),
  tab: (tab) => show({ tab }),
};
document.getElementById('stage').replaceChildren(renderScene(state, intents));
Object.assign(document.documentElement.dataset, { ready: 'true', busy: 'false', animating: 'false', revision: '1' });

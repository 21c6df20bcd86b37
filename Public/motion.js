// motion.js — animates from the previous scene to the new one, as an answer's `transitions` say:
//   push       the new screen slides in from the right over the old one
//   pop        the removed screen slides out to the right, uncovering the one below
//   present    the modal rises from the bottom (a sheet over dimmed content)
//   dismiss    the modal falls away
//   setRoot    the whole scene cross-fades
//   selectTab  no slide: the tab's content fades in quickly
//   update     nothing moves
// The new scene is already in the document and live; elements of the old scene that must be seen
// leaving are moved into it, made inert, animated, and removed. With prefers-reduced-motion nothing
// moves. Nothing here reads the network or the application's flows.

const SLIDE = { duration: 380, easing: 'cubic-bezier(0.32, 0.72, 0, 1)' };
const RISE = { duration: 420, easing: 'cubic-bezier(0.32, 0.72, 0, 1)' };
const FADE = { duration: 260, easing: 'ease-out' };
const QUICK = { duration: 160, easing: 'ease-out' };

const running = new Set();

/** Ends every running animation at once (before the next render). */
export function settle() {
  for (const job of [...running]) job.finish();
}

/**
 * Animates `transitions` between `oldScene` (detached, or null) and `newScene` (in `stage`).
 * Resolves when everything has finished. `op: 'refresh'` is the client's own: a change pushed by
 * the server without transitions, shown with a short cross-fade.
 */
export function animateTransitions(stage, oldScene, newScene, transitions, { reduced = false } = {}) {
  if (!oldScene || reduced || !transitions?.length) return Promise.resolve();
  const animations = [];
  const leaving = [];
  const run = (el, keyframes, timing) => animations.push(el.animate(keyframes, { ...timing, fill: 'none' }));
  const leave = (el) => {
    markLeaving(el);
    leaving.push(el);
    return el;
  };
  const ops = new Set(transitions.map((t) => t.op));

  if (ops.has('setRoot') || ops.has('refresh')) {
    stage.append(leave(oldScene));
    run(oldScene, [{ opacity: 1 }, { opacity: 0 }], ops.has('setRoot') ? FADE : QUICK);
  } else {
    const dismissed = new Set();
    const presented = new Set();
    const stacks = new Set();
    const byOp = (op) => transitions.filter((t) => t.op === op);

    for (const t of byOp('dismiss')) {
      const layer = findScreen(oldScene, t.screens)?.closest('.layer-modal');
      if (!layer || dismissed.has(layer)) continue;
      dismissed.add(layer);
      newScene.append(leave(layer));
      const card = layer.querySelector(':scope > .modal-card');
      const backdrop = layer.querySelector(':scope > .backdrop');
      if (card) run(card, [{ transform: 'translateY(0)' }, { transform: 'translateY(100%)' }], RISE);
      if (backdrop) run(backdrop, [{ opacity: 1 }, { opacity: 0 }], RISE);
    }

    for (const t of byOp('present')) {
      const layer = findScreen(newScene, t.screens)?.closest('.layer-modal');
      if (!layer || presented.has(layer)) continue;
      presented.add(layer);
      const card = layer.querySelector(':scope > .modal-card');
      const backdrop = layer.querySelector(':scope > .backdrop');
      if (card) run(card, [{ transform: 'translateY(100%)' }, { transform: 'translateY(0)' }], RISE);
      if (backdrop) run(backdrop, [{ opacity: 0 }, { opacity: 1 }], RISE);
    }

    if (ops.has('selectTab')) {
      for (const content of newScene.querySelectorAll('.tab-content')) run(content, [{ opacity: 0.4 }, { opacity: 1 }], QUICK);
    }

    // Pushes before pops: a stack that was reset and then pushed (a deep link) slides forward.
    for (const t of byOp('push')) {
      const screen = findScreen(newScene, t.screens);
      const stack = screen?.closest('[data-stack-key]');
      if (!stack || stacks.has(stack.dataset.stackKey) || presented.has(screen.closest('.layer-modal'))) continue;
      stacks.add(stack.dataset.stackKey);
      const before = findStack(oldScene, stack.dataset.stackKey)?.querySelector(':scope > .screen');
      if (before && before.dataset.screenId !== screen.dataset.screenId) {
        stack.insertBefore(leave(before), screen);
        run(before, [{ transform: 'translateX(0)' }, { transform: 'translateX(-30%)', filter: 'brightness(0.94)' }], SLIDE);
        run(screen, [{ transform: 'translateX(100%)', boxShadow: '0 0 24px rgba(0,0,0,0.18)' }, { transform: 'translateX(0)', boxShadow: '0 0 24px rgba(0,0,0,0)' }], SLIDE);
      } else {
        run(screen, [{ opacity: 0 }, { opacity: 1 }], QUICK);
      }
    }

    for (const t of byOp('pop')) {
      const removed = findScreen(oldScene, t.screens);
      const oldStack = removed?.closest('[data-stack-key]');
      if (!oldStack || stacks.has(oldStack.dataset.stackKey) || dismissed.has(removed.closest('.layer-modal'))) continue;
      const stack = findStack(newScene, oldStack.dataset.stackKey);
      const revealed = stack?.querySelector(':scope > .screen');
      if (!revealed) continue;
      stacks.add(oldStack.dataset.stackKey);
      stack.append(leave(removed));
      run(removed, [{ transform: 'translateX(0)', boxShadow: '0 0 24px rgba(0,0,0,0.18)' }, { transform: 'translateX(100%)', boxShadow: '0 0 24px rgba(0,0,0,0)' }], SLIDE);
      run(revealed, [{ transform: 'translateX(-30%)', filter: 'brightness(0.94)' }, { transform: 'translateX(0)', filter: 'brightness(1)' }], SLIDE);
    }
  }

  if (!animations.length && !leaving.length) return Promise.resolve();
  let done = false;
  const job = {
    finish() {
      if (done) return;
      done = true;
      for (const a of animations) a.cancel();
      for (const el of leaving) el.remove();
      running.delete(job);
      document.documentElement.dataset.animating = String(running.size > 0);
    },
  };
  running.add(job);
  document.documentElement.dataset.animating = 'true';
  return Promise.all(animations.map((a) => a.finished.catch(() => undefined))).then(() => job.finish());
}

function findScreen(scene, ids) {
  for (const id of [...(ids ?? [])].reverse()) {
    const el = scene.querySelector(`.screen[data-screen-id="${CSS.escape(String(id))}"]`);
    if (el) return el;
  }
  return null;
}

function findStack(scene, key) {
  return scene.querySelector(`[data-stack-key="${CSS.escape(key)}"]`);
}

/** An element on its way out: not focusable, not announced, invisible to tests and ids. */
function markLeaving(el) {
  el.inert = true;
  el.setAttribute('aria-hidden', 'true');
  el.dataset.leaving = 'true';
  for (const node of [el, ...el.querySelectorAll('[data-testid], [id], [data-top]')]) {
    node.removeAttribute('data-testid');
    node.removeAttribute('id');
    node.removeAttribute('data-top');
  }
}

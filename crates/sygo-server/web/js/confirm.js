// A question that needs a clear yes before something that cannot be taken
// back (resigning, a pass that ends the game): a modal <dialog> near the top
// of the screen, far from the buttons that open it, with Cancel first and
// focused, so that neither a second tap nor Enter confirms by accident.

import { h } from './dom.js';

let dialog = null;

/**
 * Asks `question` (with `detail` under it); resolves to true when `yes` (the
 * confirming button's text) is pressed, false on Cancel or Escape.
 * `id` names the dialog for tests and styles (`confirm-resign`, …).
 */
export function askConfirm({ id, question, detail, yes }) {
  if (dialog) dialog.close('cancel');
  const d = h('dialog', { class: 'confirm-dialog', id, 'aria-labelledby': `${id}-question` });
  const no = h('button', { type: 'button', id: `${id}-no`, 'data-action': `${id}-no`, value: 'cancel' }, 'Cancel');
  const ok = h('button', { type: 'button', class: 'danger', id: `${id}-yes`, 'data-action': `${id}-yes` }, yes);
  d.append(
    h('p', { class: 'question', id: `${id}-question` }, question),
    detail ? h('p', { class: 'detail' }, detail) : null,
    h('div', { class: 'dialog-buttons' }, no, ok),
  );
  document.body.append(d);
  dialog = d;
  return new Promise((resolve) => {
    let answer = false;
    no.addEventListener('click', () => d.close());
    ok.addEventListener('click', () => { answer = true; d.close(); });
    d.addEventListener('close', () => {
      d.remove();
      if (dialog === d) dialog = null;
      resolve(answer);
    });
    d.showModal();
    no.focus();
  });
}

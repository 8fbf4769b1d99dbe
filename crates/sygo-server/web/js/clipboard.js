// Copying a link (the private and spectator links).

import { announce } from './announce.js';

/** Copies a link; selects it when the clipboard is refused. */
export function copy(input, text) {
  input.select();
  if (navigator.clipboard && window.isSecureContext) {
    navigator.clipboard.writeText(text).then(() => announce('Link copied.'), () => document.execCommand('copy'));
  } else {
    document.execCommand('copy');
    announce('Link copied.');
  }
}

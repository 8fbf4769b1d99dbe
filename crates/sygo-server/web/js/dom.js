// Small helpers to build HTML and SVG elements.

const SVG_NS = 'http://www.w3.org/2000/svg';

function fill(el, attrs, children) {
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === undefined || v === null || v === false) continue;
    if (k.startsWith('on') && typeof v === 'function') el.addEventListener(k.slice(2), v);
    else if (k === 'text') el.textContent = v;
    else el.setAttribute(k, v === true ? '' : String(v));
  }
  for (const child of children.flat()) {
    if (child === undefined || child === null || child === false) continue;
    el.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return el;
}

/** An HTML element: `h('button', {class: 'x', onclick: f}, 'Text')`. */
export function h(tag, attrs, ...children) {
  return fill(document.createElement(tag), attrs, children);
}

/** An SVG element. */
export function s(tag, attrs, ...children) {
  return fill(document.createElementNS(SVG_NS, tag), attrs, children);
}

/** Replaces an element's children. */
export function setChildren(el, ...children) {
  el.replaceChildren();
  return fill(el, {}, children);
}

/** "black" → "Black". */
export const cap = (word) => word.charAt(0).toUpperCase() + word.slice(1);

export const other = (color) => (color === 'black' ? 'white' : 'black');

/** "D5", "D5 and F7", "D5, F7 and K10". */
export function listPoints(points) {
  if (points.length <= 1) return points.join('');
  return points.slice(0, -1).join(', ') + ' and ' + points[points.length - 1];
}

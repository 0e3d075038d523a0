// Building the page's elements. Text is always a text node: no string is ever parsed as markup,
// and no attribute the browser would run or load is set from a result, so its text shows as text.

// h makes an element: attrs sets attributes (data-* and aria-* included; a function value under
// a key starting "on" is an event listener), and children are nodes or strings (text nodes),
// arrays of them, or null/undefined/false (skipped).
export function h(tag, attrs, ...children) {
  const el = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value === null || value === undefined || value === false) continue;
    if (key.startsWith('on') && typeof value === 'function') {
      el.addEventListener(key.slice(2), value);
    } else if (key === 'class') {
      el.className = value;
    } else {
      el.setAttribute(key, value === true ? '' : String(value));
    }
  }
  append(el, children);
  return el;
}

// append adds children to el as h does.
export function append(el, children) {
  for (const child of children.flat(Infinity)) {
    if (child === null || child === undefined || child === false) continue;
    el.append(typeof child === 'string' || typeof child === 'number' ? document.createTextNode(String(child)) : child);
  }
  return el;
}

// Element construction without HTML strings: text always goes through text nodes (textContent), so a
// scenario title, a description or anything a user typed can never become markup.

/**
 * Creates an element. `props`: `class`, `text` (textContent), `dataset`, `style` (object), `on` (event →
 * handler), any other key as an attribute (`true` → empty attribute, `false`/`null`/`undefined` → none).
 * Children: nodes or strings (as text), nested arrays flattened, `null`/`false` skipped.
 * @returns {HTMLElement}
 */
export function el(tag, props = {}, ...children) {
  const node = document.createElement(tag);
  applyProps(node, props);
  append(node, children);
  return node;
}

/** The same for SVG elements. */
export function svg(tag, props = {}, ...children) {
  const node = document.createElementNS('http://www.w3.org/2000/svg', tag);
  applyProps(node, props);
  append(node, children);
  return node;
}

function applyProps(node, props) {
  for (const [key, value] of Object.entries(props)) {
    if (value === undefined || value === null || value === false) continue;
    if (key === 'class') node.setAttribute('class', value);
    else if (key === 'text') node.textContent = value;
    else if (key === 'dataset') Object.assign(node.dataset, value);
    else if (key === 'style') Object.assign(node.style, value);
    else if (key === 'on') for (const [type, handler] of Object.entries(value)) node.addEventListener(type, handler);
    else node.setAttribute(key, value === true ? '' : String(value));
  }
}

function append(node, children) {
  for (const child of children.flat(Infinity)) {
    if (child === null || child === undefined || child === false) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
}

/** Replaces every child of `node`. */
export function replaceChildren(node, ...children) {
  node.replaceChildren();
  append(node, children);
}

let uid = 0;
/** A document-unique id with a readable prefix (for label/for, aria-describedby, …). */
export function uniqueId(prefix) {
  uid += 1;
  return `${prefix}-${uid}`;
}

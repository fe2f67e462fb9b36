// The only way the preview builds elements: tag + attributes + children, where a string child is a
// text node. There is no path from model data to markup (no innerHTML, no insertAdjacentHTML).

export type Child = Node | string | null | undefined | false;

export interface Attrs {
  class?: string;
  id?: string;
  title?: string;
  role?: string;
  type?: string;
  name?: string;
  value?: string;
  for?: string;
  checked?: boolean;
  disabled?: boolean;
  hidden?: boolean;
  tabindex?: number;
  /** aria-* and data-* attributes, by their suffix: { 'aria-label': '…' } style keys. */
  [attr: `aria-${string}` | `data-${string}`]: string | undefined;
}

const PROPS = new Set(['checked', 'disabled', 'hidden', 'value']);

export function h<K extends keyof HTMLElementTagNameMap>(tag: K, attrs: Attrs | null, ...children: Child[]): HTMLElementTagNameMap[K] {
  const el = document.createElement(tag);
  if (attrs) {
    for (const [k, v] of Object.entries(attrs)) {
      if (v === undefined || v === null || v === false) continue;
      if (k === 'class') el.className = String(v);
      else if (PROPS.has(k)) (el as unknown as Record<string, unknown>)[k] = v;
      else el.setAttribute(k, v === true ? '' : String(v));
    }
  }
  append(el, ...children);
  return el;
}

export function append(el: Node, ...children: Child[]): void {
  for (const c of children) {
    if (c === null || c === undefined || c === false) continue;
    el.appendChild(typeof c === 'string' ? document.createTextNode(c) : c);
  }
}

export function clear(el: Node): void {
  while (el.firstChild) el.removeChild(el.firstChild);
}

/** Text that may be cut visually (CSS ellipsis): the full text stays in the tooltip. */
export function truncated(cls: string, text: string): HTMLSpanElement {
  return h('span', { class: `truncate ${cls}`, title: text }, text);
}

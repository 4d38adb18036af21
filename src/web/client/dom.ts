/** A small element builder: text always goes in as text, never as markup. */

/** What an element can hold. */
export type Child = Node | string | number | null | undefined | false | Child[];

/** Properties of an element: attributes, a class, event handlers. */
export interface Props {
  class?: string;
  title?: string;
  href?: string;
  id?: string;
  attrs?: Record<string, string>;
  on?: Partial<{ [K in keyof HTMLElementEventMap]: (event: HTMLElementEventMap[K]) => void }>;
}

function append(parent: Node, child: Child): void {
  if (child === null || child === undefined || child === false) return;
  if (Array.isArray(child)) {
    for (const c of child) append(parent, c);
    return;
  }
  parent.appendChild(typeof child === "object" ? child : document.createTextNode(String(child)));
}

/** An HTML element with props and children. */
export function h<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  props: Props | null = null,
  ...children: Child[]
): HTMLElementTagNameMap[K] {
  const el = document.createElement(tag);
  if (props) {
    if (props.class) el.className = props.class;
    if (props.title) el.title = props.title;
    if (props.id) el.id = props.id;
    if (props.href !== undefined) el.setAttribute("href", props.href);
    for (const [k, v] of Object.entries(props.attrs ?? {})) el.setAttribute(k, v);
    for (const [type, handler] of Object.entries(props.on ?? {})) {
      el.addEventListener(type, handler as EventListener);
    }
  }
  append(el, children);
  return el;
}

const SVG_NS = "http://www.w3.org/2000/svg";

/** An SVG element with attributes and children. */
export function s(
  tag: string,
  attrs: Record<string, string | number> = {},
  ...children: Child[]
): SVGElement {
  const el = document.createElementNS(SVG_NS, tag);
  for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, String(v));
  append(el, children);
  return el;
}

/** Replace the children of `el`. */
export function mount(el: Element, ...children: Child[]): void {
  el.replaceChildren();
  append(el, children);
}

/**
 * Markup produced by longhaul itself (figures vega drew on the server), parsed as SVG: the
 * only markup the page inserts.
 */
export function trustedSvg(markup: string): Node {
  const doc = new DOMParser().parseFromString(markup, "image/svg+xml");
  return document.importNode(doc.documentElement, true);
}

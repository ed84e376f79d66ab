/**
 * The one way this app puts anything on the page. Text always goes in as
 * `textContent` (never `innerHTML`), so a server or a model can send any
 * string, markup included, and it shows as text.
 */
type Child = Node | string | undefined | false;

/** An element with attributes (`class`, `type`, …) and children; strings become text nodes. */
export function el<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attributes: Record<string, string | boolean> = {},
  ...children: Child[]
): HTMLElementTagNameMap[K] {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) {
    if (value === true) element.setAttribute(name, '');
    else if (value !== false) element.setAttribute(name, value);
  }
  for (const child of children) {
    if (child === undefined || child === false) continue;
    element.append(typeof child === 'string' ? document.createTextNode(child) : child);
  }
  return element;
}

/** Pretty JSON for showing tool arguments and results; never throws. */
export function json(value: unknown): string {
  try {
    return JSON.stringify(value, null, 2) ?? String(value);
  } catch {
    return String(value);
  }
}

/** The chat transcript: each entry is appended at the end and scrolled into view. */
export const transcript = {
  element: document.getElementById('log') as HTMLElement,
  add<T extends HTMLElement>(entry: T): T {
    this.element.append(entry);
    entry.scrollIntoView({ block: 'end' });
    return entry;
  },
};

/** An error as one readable line: its name, message and (if any) its cause's message. */
export function describeError(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const cause = error.cause instanceof Error ? ` (cause: ${error.cause.message})` : '';
  return `${error.name}: ${error.message}${cause}`;
}

// What every test view shares: the real ext-apps `App`, connected with its
// handlers set first (a notification that arrives before a handler is lost),
// and a visible outcome list a Playwright test reads inside the frame.
import { App } from '@modelcontextprotocol/ext-apps';

/**
 * Connects a real `App` to the host (`window.parent`), after `setUp` has set
 * its handlers. `#status` reads `connected` or `failed: <message>`.
 * @param {string} name the view's `appInfo.name`
 * @param {(app: App) => void} [setUp]
 * @returns {Promise<App | undefined>} undefined when the handshake failed
 */
export async function connectView(name, setUp) {
  const app = new App({ name, version: '1.0.0' }, { availableDisplayModes: ['inline', 'fullscreen'] });
  setUp?.(app);
  try {
    await app.connect();
    text('#status', 'connected');
    return app;
  } catch (error) {
    text('#status', `failed: ${messageOf(error)}`);
    return undefined;
  }
}

/**
 * Records one outcome as `<li data-key="key">value</li>` in `#outcome` (the
 * last value of a key wins) and in `window.outcomes`.
 * @param {string} key
 * @param {string} value
 */
export function report(key, value) {
  globalThis.outcomes ??= {};
  globalThis.outcomes[key] = value;
  const list = element('#outcome', 'ol');
  let item = list.querySelector(`[data-key="${CSS.escape(key)}"]`);
  if (item === null) {
    item = document.createElement('li');
    item.setAttribute('data-key', key);
    list.append(item);
  }
  item.textContent = value;
}

/**
 * Runs `action` and reports `ok: <what it returned>` or `error: <message>`.
 * @param {string} key
 * @param {() => Promise<unknown>} action
 */
export async function attempt(key, action) {
  try {
    const value = await action();
    report(key, `ok: ${typeof value === 'string' ? value : JSON.stringify(value)}`);
  } catch (error) {
    report(key, `error: ${messageOf(error)}`);
  }
}

/** Sets the text of the element with that id selector, creating it when missing. */
export function text(selector, value) {
  element(selector, 'div').textContent = value;
}

/** A button with that id, appended to the body. */
export function button(id, label, onClick) {
  const node = document.createElement('button');
  node.id = id;
  node.textContent = label;
  node.addEventListener('click', () => void onClick());
  document.body.append(node);
  return node;
}

/** The text of a tool result's text blocks, joined. */
export function resultText(result) {
  return (result?.content ?? [])
    .filter((block) => block.type === 'text')
    .map((block) => block.text)
    .join('\n');
}

/** Posts a raw message to the host, as a view that does not use the SDK would. */
export function postRaw(message) {
  window.parent.postMessage(message, '*');
}

export function messageOf(error) {
  return error instanceof Error ? `${error.name}: ${error.message}` : String(error);
}

function element(selector, tag) {
  let node = document.querySelector(selector);
  if (node === null) {
    node = document.createElement(tag);
    node.id = selector.slice(1);
    document.body.append(node);
  }
  return node;
}

import { mcpToolSet } from '@mcp/ai-sdk';
import type { Connection, Servers, ServersSnapshot } from '@mcp/core/connections';
import type { ModelMessage } from 'ai';
import { chatTurn } from './chat.js';
import { describeError, el, transcript } from './dom.js';
import { type ModelSettings, modelFrom } from './model.js';
import { pendingRequests } from './pending-requests.js';
import { ServerPanel } from './server-panel.js';
import { checkTypedUrl, openServers } from './server-set.js';
import type { ToolCard } from './tool-card.js';

const addForm = document.getElementById('add-server') as HTMLFormElement;
const addError = addForm.querySelector('.error') as HTMLElement;
const modelForm = document.getElementById('model') as HTMLFormElement;
const promptForm = document.getElementById('prompt') as HTMLFormElement;
const serverList = document.getElementById('servers') as HTMLUListElement;
const notices = document.getElementById('notices') as HTMLUListElement;
const toolList = document.getElementById('tools') as HTMLUListElement;

/** The conversation so far, as the model sees it. */
const history: ModelMessage[] = [];
/** The tool calls under way, by the model's tool call id, for their progress. */
const cards = new Map<string, ToolCard>();

const textInput = promptForm.elements.namedItem('text') as HTMLTextAreaElement;
const [sendButton, stopButton] = promptForm.querySelectorAll('button');
/** Aborts the turn under way: the model stream stops and running tool calls are cancelled on the server. */
let turn: AbortController | undefined;
/** Settles when the last turn started has ended (never rejects). */
let turnEnded: Promise<void> | undefined;

function modelSettings(): ModelSettings {
  const field = (name: string) => (modelForm.elements.namedItem(name) as HTMLInputElement).value.trim();
  return { baseURL: field('baseURL'), apiKey: field('apiKey'), modelId: field('modelId') };
}

/** Notices kept on the page: the newest, so a store that fails at every save cannot grow the page without end. */
const MAX_NOTICES = 20;

/** Tells the user what the set worked around: a damaged stored server, a stored session it could not use. */
function notice(message: string): void {
  notices.append(el('li', { role: 'alert' }, message));
  while (notices.children.length > MAX_NOTICES) notices.firstElementChild?.remove();
}

const servers = await openServers(notice).catch((error: unknown) => {
  notice(`The stored servers could not be read: ${describeError(error)}`);
  return undefined;
});

if (servers) {
  const panel = new ServerPanel(serverList, servers, (connection) => {
    // The store may refuse to forget it (Web Storage disabled): the user is told, nothing else breaks.
    remove(connection).catch((error: unknown) => notice(`${connection.name}: ${describeError(error)}`));
  });
  const showPending = pendingRequests(() => modelFrom(modelSettings()));
  const render = (snapshot: ServersSnapshot) => {
    panel.render(snapshot.servers);
    toolList.replaceChildren(
      ...snapshot.tools.map(({ name, description }) =>
        el('li', {}, el('code', {}, name), description !== undefined && ` ${description}`),
      ),
    );
    showPending(snapshot);
    setBusy(turn !== undefined);
  };
  servers.subscribe(() => render(servers.getSnapshot()));
  render(servers.getSnapshot());
  wireAddForm(servers);
  wirePrompt(servers);
}

/** Removing a server first stops a turn under way (its calls cancelled on the server), then ends its session. */
async function remove(connection: Connection): Promise<void> {
  turn?.abort();
  await turnEnded;
  await servers?.remove(connection.name);
}

function wireAddForm(set: Servers): void {
  const addButton = addForm.querySelector('button') as HTMLButtonElement;
  addForm.addEventListener('submit', (event) => {
    event.preventDefault();
    // Disabled while the server is being added: a double click adds it once.
    if (addButton.disabled) return;
    addButton.disabled = true;
    addError.textContent = '';
    const field = (name: string) => (addForm.elements.namedItem(name) as HTMLInputElement).value.trim();
    const url = field('url');
    Promise.resolve()
      .then(() => {
        checkTypedUrl(url);
        return set.add({ name: field('name'), url, oauth: true });
      })
      .then(
        () => addForm.reset(),
        (error: unknown) => {
          addError.textContent = describeError(error);
        },
      )
      .finally(() => {
        addButton.disabled = false;
      });
  });
}

/** While a turn runs only Stop works; with no server ready nothing does. */
function setBusy(busy: boolean): void {
  const anyReady = servers?.getSnapshot().servers.some((server) => server.state.status === 'ready') ?? false;
  textInput.disabled = sendButton!.disabled = busy || !anyReady;
  stopButton!.disabled = !busy;
}

function wirePrompt(set: Servers): void {
  stopButton!.addEventListener('click', () => turn?.abort());
  promptForm.addEventListener('submit', (event) => {
    event.preventDefault();
    const text = textInput.value.trim();
    if (text === '' || turn) return;
    textInput.value = '';
    const current = new AbortController();
    turn = current;
    setBusy(true);
    const { model } = modelFrom(modelSettings());
    // The tools of every server ready now, under the set's names; progress goes to each call's own card.
    turnEnded = mcpToolSet(set, {
      callOptions: ({ toolCallId }) => ({ onProgress: (progress) => cards.get(toolCallId)?.progress(progress) }),
    })
      .then(
        (tools) => chatTurn({ model, tools, history, text, cards, signal: current.signal }),
        (error: unknown) => void transcript.add(el('p', { class: 'entry error', role: 'alert' }, describeError(error))),
      )
      .finally(() => {
        turn = undefined;
        setBusy(false);
      });
  });
}

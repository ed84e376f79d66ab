import { mcpToolSet } from '@mcp/ai-sdk';
import type { Client, ElicitationHandler } from '@mcp/core';
import type { ModelMessage, ToolSet } from 'ai';
import { chatTurn } from './chat.js';
import { connect } from './connection.js';
import { describeError, el } from './dom.js';
import { askUser } from './elicitation-form.js';
import { type ModelSettings, modelFrom } from './model.js';
import { samplingWithApproval } from './sampling.js';
import type { ToolCard } from './tool-card.js';

const connectForm = document.getElementById('connect') as HTMLFormElement;
const promptForm = document.getElementById('prompt') as HTMLFormElement;
const status = document.getElementById('status') as HTMLElement;
const toolList = document.getElementById('tools') as HTMLUListElement;

/** The conversation so far, as the model sees it. */
const history: ModelMessage[] = [];
/** The tool calls under way, by the model's tool call id, for their progress. */
const cards = new Map<string, ToolCard>();
let session: { client: Client; tools: ToolSet } | undefined;

function modelSettings(): ModelSettings {
  const field = (name: string) => (connectForm.elements.namedItem(name) as HTMLInputElement).value.trim();
  return { baseURL: field('baseURL'), apiKey: field('apiKey'), modelId: field('modelId') };
}

/** Form-mode questions become a form in the transcript; URL mode is not offered (see README). */
const elicitation: ElicitationHandler = (request, { signal }) =>
  request.mode === 'url' ? { action: 'decline' } : askUser(request, signal);

async function start(url: string): Promise<void> {
  // A turn on the old connection stops (its tool calls cancelled on the server) before that client closes.
  turn?.abort();
  await turnEnded;
  const old = session;
  session = undefined;
  setBusy(false);
  await old?.client.close();
  status.textContent = 'Connecting…';
  const client = await connect(url, {
    elicitation,
    sampling: samplingWithApproval(() => modelFrom(modelSettings())),
  });
  try {
    // Options for each call: its progress goes to its own card, also when the model runs tools in parallel.
    const tools = await mcpToolSet(client, {
      callOptions: ({ toolCallId }) => ({ onProgress: (progress) => cards.get(toolCallId)?.progress(progress) }),
    });
    session = { client, tools };
    toolList.replaceChildren(
      ...Object.entries(tools).map(([name, tool]) =>
        el('li', {}, el('code', {}, name), tool.description !== undefined && ` ${tool.description}`),
      ),
    );
  } catch (error) {
    await client.close();
    throw error;
  }
  status.textContent = `Connected to ${client.serverInfo?.name ?? 'the server'} (${client.protocolVersion}).`;
}

const connectButton = connectForm.querySelector('button') as HTMLButtonElement;
/** Set while a connection is being made: a second Connect (a double click) waits for it to end. */
let connecting = false;

connectForm.addEventListener('submit', (event) => {
  event.preventDefault();
  if (connecting) return;
  connecting = connectButton.disabled = true;
  const url = (connectForm.elements.namedItem('server') as HTMLInputElement).value.trim();
  start(url)
    .catch((error: unknown) => {
      status.textContent = describeError(error);
    })
    .finally(() => {
      connecting = connectButton.disabled = false;
      setBusy(false);
    });
});

const textInput = promptForm.elements.namedItem('text') as HTMLTextAreaElement;
const [sendButton, stopButton] = promptForm.querySelectorAll('button');
/** Aborts the turn under way: the model stream stops and running tool calls are cancelled on the server. */
let turn: AbortController | undefined;
/** Settles when the last turn started has ended (never rejects). */
let turnEnded: Promise<void> | undefined;

/** While a turn runs only Stop works; without a connection nothing does. */
function setBusy(busy: boolean): void {
  textInput.disabled = sendButton!.disabled = busy || session === undefined;
  stopButton!.disabled = !busy;
}

stopButton!.addEventListener('click', () => turn?.abort());

promptForm.addEventListener('submit', (event) => {
  event.preventDefault();
  const text = textInput.value.trim();
  if (session === undefined || text === '') return;
  textInput.value = '';
  const current = new AbortController();
  turn = current;
  setBusy(true);
  const { model } = modelFrom(modelSettings());
  turnEnded = chatTurn({ model, tools: session.tools, history, text, cards, signal: current.signal }).finally(() => {
    // A turn stopped by a reconnect may end after the next one began: only the current turn frees the form.
    if (turn !== current) return;
    turn = undefined;
    setBusy(false);
  });
});

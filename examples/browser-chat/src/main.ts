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
  await session?.client.close();
  session = undefined;
  status.textContent = 'Connecting…';
  const client = await connect(url, {
    elicitation,
    sampling: samplingWithApproval(() => modelFrom(modelSettings())),
  });
  try {
    // One onProgress serves every call (mcpToolSet takes one set of call options), so progress goes to
    // the call started last that is still running: right when the model calls one tool at a time.
    const tools = await mcpToolSet(client, {
      callOptions: { onProgress: (progress) => [...cards.values()].at(-1)?.progress(progress) },
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

connectForm.addEventListener('submit', (event) => {
  event.preventDefault();
  const url = (connectForm.elements.namedItem('server') as HTMLInputElement).value.trim();
  start(url).then(
    () => setBusy(false),
    (error: unknown) => {
      status.textContent = describeError(error);
      setBusy(false);
    },
  );
});

const textInput = promptForm.elements.namedItem('text') as HTMLTextAreaElement;
const [sendButton, stopButton] = promptForm.querySelectorAll('button');
/** Aborts the turn under way: the model stream stops and running tool calls are cancelled on the server. */
let turn: AbortController | undefined;

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
  turn = new AbortController();
  setBusy(true);
  const { model } = modelFrom(modelSettings());
  void chatTurn({ model, tools: session.tools, history, text, cards, signal: turn.signal }).finally(() => {
    turn = undefined;
    setBusy(false);
  });
});

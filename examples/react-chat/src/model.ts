import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import type { LanguageModel } from 'ai';

/** Where the model lives: any OpenAI-compatible Chat Completions endpoint. */
export interface ModelSettings {
  /** e.g. `https://api.openai.com/v1`, `http://localhost:11434/v1` (Ollama), a proxy of your own. */
  readonly baseURL: string;
  /** Sent as `Authorization: Bearer <apiKey>`; empty sends none. Kept in memory only. */
  readonly apiKey: string;
  readonly modelId: string;
}

/** A chosen model and the id to report it by (sampling results name the model). */
export interface ChosenModel {
  readonly model: LanguageModel;
  readonly id: string;
}

/** The AI SDK model for these settings, called straight from the browser (the endpoint must allow CORS). */
export function modelFrom({ baseURL, apiKey, modelId }: ModelSettings): ChosenModel {
  const provider = createOpenAICompatible({ name: 'endpoint', baseURL, ...(apiKey !== '' && { apiKey }) });
  return { model: provider.chatModel(modelId), id: modelId };
}

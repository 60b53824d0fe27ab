import { z } from "zod";
import { bearerCredentialHeaders } from "../bearer-credential-headers.js";
import { defineProvider } from "../provider-definition.js";
import {
  createOpenAiChatModel,
  createOpenAiDecisionModel,
  createOpenAiEmbeddingModel,
  createOpenAiTokenCounter,
  openAiDefaultBaseUrl,
} from "./openai-adapter.js";
import { openAiServesResponsesApi } from "./openai-serves-responses-api.js";

/** Any OpenAI-compatible API (OpenAI, Groq, OpenRouter, vLLM, Ollama, ...). */
export const provider = defineProvider({
  kind: "openai",
  label: "OpenAI-compatible",
  network: true,
  defaultBaseUrl: openAiDefaultBaseUrl,
  baseUrlPathIsApiRoot: true,
  credentialHeaders: bearerCredentialHeaders,
  settingsSchema: z.object({ logprobs: z.boolean().nullish().catch(undefined).transform((value) => value !== false) }),
  servesResponsesApi: openAiServesResponsesApi,
  chat: (connection, _settings, dependencies) => createOpenAiChatModel(connection, dependencies),
  embeddings: (connection, _settings, dependencies) => createOpenAiEmbeddingModel(connection, dependencies),
  tokenCounter: (connection) => createOpenAiTokenCounter(connection),
  decisions: createOpenAiDecisionModel,
});

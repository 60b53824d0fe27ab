import { lowerCaseKeys } from "../../upstream-call.js";
import { defineProvider } from "../provider-definition.js";
import { createGeminiChatModel } from "./gemini-chat-model.js";
import { createGeminiDecisionModel } from "./gemini-decision-model.js";
import { createGeminiEmbeddingModel } from "./gemini-embedding-model.js";
import { createGeminiApiEndpoint, geminiApiRoot, geminiCredentialHeaders, geminiDefaultBaseUrl } from "./gemini-endpoint.js";
import { geminiDefaultPrices, geminiModels } from "./gemini-models.js";
import { geminiSettingsSchema } from "./gemini-settings.js";
import { createGeminiTokenCounter } from "./gemini-token-counter.js";

/**
 * The Google Gemini API (`generativelanguage.googleapis.com`): `generateContent` and
 * `streamGenerateContent` for chat completions, messages and Responses (translated),
 * `embedContent` / `batchEmbedContents`, `countTokens`, decisions with log-probabilities; the
 * API key in `x-goog-api-key`.
 */
export const provider = defineProvider({
  kind: "gemini",
  label: "Google Gemini API",
  network: true,
  defaultBaseUrl: geminiDefaultBaseUrl,
  baseUrlPathIsApiRoot: false,
  credentialHeaders: geminiCredentialHeaders,
  settingsSchema: geminiSettingsSchema,
  models: geminiModels,
  defaultPrices: geminiDefaultPrices,
  async connectionTest(connection, settings) {
    const headers = { accept: "application/json", ...geminiCredentialHeaders(connection.credential), ...lowerCaseKeys(connection.headers) };
    return { url: `${geminiApiRoot(connection, settings.apiVersion)}/models`, method: "GET", headers };
  },
  chat: (connection, settings, dependencies) => createGeminiChatModel(connection, settings, dependencies, createGeminiApiEndpoint(connection, settings.apiVersion)),
  embeddings: (connection, settings, dependencies) => createGeminiEmbeddingModel(connection, settings, dependencies, createGeminiApiEndpoint(connection, settings.apiVersion)),
  tokenCounter: (connection, settings, dependencies) => createGeminiTokenCounter(connection, settings, dependencies, createGeminiApiEndpoint(connection, settings.apiVersion)),
  decisions: (connection, settings, dependencies) => createGeminiDecisionModel(connection, settings, dependencies, createGeminiApiEndpoint(connection, settings.apiVersion)),
});

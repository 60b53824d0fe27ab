import { defaultOutboundFetch } from "../../outbound/create-outbound-fetch.js";
import type { AdapterConnection } from "../../provider-adapter.js";
import { defineProvider, type ProviderAdapterDependencies } from "../provider-definition.js";
import { createGeminiChatModel } from "../gemini/gemini-chat-model.js";
import { createGeminiDecisionModel } from "../gemini/gemini-decision-model.js";
import type { GeminiEndpoint } from "../gemini/gemini-endpoint.js";
import { createGeminiTokenCounter } from "../gemini/gemini-token-counter.js";
import { vertexAccessTokensOf } from "./vertex-access-tokens.js";
import { vertexGeminiEndpoint } from "./vertex-gemini-endpoint.js";
import {
  type VertexAnthropicContext,
  createVertexAnthropicChatModel,
  createVertexAnthropicDecisionModel,
  createVertexAnthropicTokenCounter,
} from "./vertex-anthropic-models.js";
import { createVertexChatModel, createVertexDecisionModel, createVertexTokenCounter } from "./vertex-chat-model.js";
import { vertexConnectionTest } from "./vertex-connection-test.js";
import { vertexGlobalBaseUrl } from "./vertex-model-url.js";
import { vertexDefaultPrices, vertexModels } from "./vertex-models.js";
import { type VertexSettings, vertexSettingsInputSchema, vertexSettingsSchema } from "./vertex-settings.js";

/**
 * Google Vertex AI: Claude (`anthropic/*`) through `rawPredict` / `streamRawPredict` and Gemini
 * (`google/*`, see `vertex-gemini-endpoint.ts`), in the project and location of the connection's
 * settings, with OAuth access tokens from its service-account key (or application default
 * credentials when it has none).
 */
export const provider = defineProvider<VertexSettings>({
  kind: "vertex",
  label: "Google Vertex AI",
  network: true,
  defaultBaseUrl: vertexGlobalBaseUrl,
  baseUrlPathIsApiRoot: false,
  // The credential is a key that signs token requests, never a header.
  credentialHeaders: () => ({}),
  settingsSchema: vertexSettingsSchema,
  settingsInputSchema: vertexSettingsInputSchema,
  models: vertexModels,
  defaultPrices: vertexDefaultPrices,
  connectionTest: vertexConnectionTest,
  chat: (connection, settings, dependencies) =>
    createVertexChatModel(
      {
        anthropic: createVertexAnthropicChatModel(anthropicContext(connection, settings, dependencies)),
        google: createGeminiChatModel(connection, settings, dependencies, geminiEndpoint(connection, settings, dependencies)),
      },
      settings.defaultMaxTokens,
    ),
  tokenCounter: (connection, settings, dependencies) =>
    createVertexTokenCounter({
      anthropic: createVertexAnthropicTokenCounter(anthropicContext(connection, settings, dependencies)),
      // Vertex takes `contents`, `systemInstruction` and `tools` at the top level of a count.
      google: createGeminiTokenCounter(connection, settings, dependencies, geminiEndpoint(connection, settings, dependencies), { countTokensBody: (_model, body) => body }),
    }),
  decisions: (connection, settings, dependencies) =>
    createVertexDecisionModel({
      anthropic: createVertexAnthropicDecisionModel(anthropicContext(connection, settings, dependencies)),
      google: createGeminiDecisionModel(connection, { logprobs: connection.logprobs !== false }, dependencies, geminiEndpoint(connection, settings, dependencies)),
    }),
});

/** Gemini on Vertex: the `gemini` provider's models over Vertex URLs and the connection's access tokens. */
function geminiEndpoint(connection: AdapterConnection, settings: VertexSettings, dependencies: ProviderAdapterDependencies): GeminiEndpoint {
  return vertexGeminiEndpoint({ connection, settings, tokens: vertexAccessTokensOf(connection, dependencies.fetch ?? defaultOutboundFetch()) });
}

function anthropicContext(connection: AdapterConnection, settings: VertexSettings, dependencies: ProviderAdapterDependencies): VertexAnthropicContext {
  return { connection, settings, transport: dependencies.transport, tokens: vertexAccessTokensOf(connection, dependencies.fetch ?? defaultOutboundFetch()) };
}

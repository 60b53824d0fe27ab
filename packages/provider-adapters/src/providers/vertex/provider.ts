import { defaultOutboundFetch } from "../../outbound/create-outbound-fetch.js";
import type { AdapterConnection } from "../../provider-adapter.js";
import { defineProvider, type ProviderAdapterDependencies } from "../provider-definition.js";
import { vertexAccessTokensOf } from "./vertex-access-tokens.js";
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
    createVertexChatModel({ anthropic: createVertexAnthropicChatModel(anthropicContext(connection, settings, dependencies)) }, settings.defaultMaxTokens),
  tokenCounter: (connection, settings, dependencies) =>
    createVertexTokenCounter({ anthropic: createVertexAnthropicTokenCounter(anthropicContext(connection, settings, dependencies)) }),
  decisions: (connection, settings, dependencies) =>
    createVertexDecisionModel({ anthropic: createVertexAnthropicDecisionModel(anthropicContext(connection, settings, dependencies)) }),
});

function anthropicContext(connection: AdapterConnection, settings: VertexSettings, dependencies: ProviderAdapterDependencies): VertexAnthropicContext {
  return { connection, settings, transport: dependencies.transport, tokens: vertexAccessTokensOf(connection, dependencies.fetch ?? defaultOutboundFetch()) };
}

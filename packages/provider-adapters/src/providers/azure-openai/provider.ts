import type { ModelPrice } from "@gateway/contracts";
import { defaultOutboundFetch } from "../../outbound/create-outbound-fetch.js";
import type { AdapterConnection } from "../../provider-adapter.js";
import { createOpenAiTokenCounter } from "../openai/openai-adapter.js";
import { defineProvider } from "../provider-definition.js";
import { azureCredentialHeaders } from "./azure-openai-caller.js";
import { azureOpenAiUrl } from "./azure-openai-endpoint.js";
import { createAzureOpenAiChatModel, createAzureOpenAiDecisionModel, createAzureOpenAiEmbeddingModel } from "./azure-openai-models.js";
import { azureOpenAiSettingsInputSchema, azureOpenAiSettingsSchema } from "./azure-openai-settings.js";

/** Azure's global-deployment prices (USD per million tokens), the same as OpenAI's list prices. */
const azureOpenAiPrices: Record<string, ModelPrice> = {
  "openai/gpt-4.1": { input: 2, output: 8, cacheRead: 0.5, contextWindow: 1_047_576, maxOutputTokens: 32_768 },
  "openai/gpt-4.1-mini": { input: 0.4, output: 1.6, cacheRead: 0.1, contextWindow: 1_047_576, maxOutputTokens: 32_768 },
  "openai/gpt-4.1-nano": { input: 0.1, output: 0.4, cacheRead: 0.025, contextWindow: 1_047_576, maxOutputTokens: 32_768 },
  "openai/gpt-4o": { input: 2.5, output: 10, cacheRead: 1.25, contextWindow: 128_000, maxOutputTokens: 16_384 },
  "openai/gpt-4o-mini": { input: 0.15, output: 0.6, cacheRead: 0.075, contextWindow: 128_000, maxOutputTokens: 16_384 },
  "openai/o4-mini": { input: 1.1, output: 4.4, cacheRead: 0.275, contextWindow: 200_000, maxOutputTokens: 100_000 },
  "openai/o3-mini": { input: 1.1, output: 4.4, cacheRead: 0.55, contextWindow: 200_000, maxOutputTokens: 100_000 },
  "openai/text-embedding-3-small": { input: 0.02, output: 0 },
  "openai/text-embedding-3-large": { input: 0.13, output: 0 },
};

/** Whether a connection uses the v1 API (the only Azure API with the Responses API here). */
function usesV1Api(connection: object): boolean {
  const settings = (connection as Partial<Pick<AdapterConnection, "settings">>).settings;
  return settings?.apiStyle === "v1";
}

/**
 * Azure OpenAI: a resource endpoint (`baseUrl`) whose deployments serve OpenAI models, with the
 * `api-key` header or Microsoft Entra ID client credentials (settings in
 * {@link azureOpenAiSettingsInputSchema}).
 */
export const provider = defineProvider({
  kind: "azure-openai",
  label: "Azure OpenAI",
  network: true,
  defaultBaseUrl: null,
  baseUrlPathIsApiRoot: true,
  credentialHeaders: (credential): Record<string, string> => (credential ? { "api-key": credential } : {}),
  settingsSchema: azureOpenAiSettingsSchema,
  settingsInputSchema: azureOpenAiSettingsInputSchema,
  models: Object.keys(azureOpenAiPrices),
  defaultPrices: azureOpenAiPrices,
  servesResponsesApi: usesV1Api,
  async connectionTest(connection, settings, dependencies) {
    // A token source of its own: the dashboard's fetch carries this test's deadline.
    const headers = await azureCredentialHeaders(connection, settings, dependencies.fetch ?? defaultOutboundFetch(), false)();
    return { url: azureOpenAiUrl(connection, settings, "/models", null), method: "GET", headers };
  },
  chat: createAzureOpenAiChatModel,
  embeddings: createAzureOpenAiEmbeddingModel,
  tokenCounter: (connection) => createOpenAiTokenCounter(connection),
  decisions: createAzureOpenAiDecisionModel,
});

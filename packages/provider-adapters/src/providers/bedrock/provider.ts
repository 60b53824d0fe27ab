import { defineProvider } from "../provider-definition.js";
import type { AdapterConnection } from "../../provider-adapter.js";
import type { ProviderAdapterDependencies } from "../provider-definition.js";
import { createBedrockChatModel } from "./bedrock-chat-model.js";
import { type BedrockClient, bedrockRuntimeUrl, createBedrockClient } from "./bedrock-client.js";
import { bedrockConnectionTest } from "./bedrock-connection-test.js";
import { createBedrockCredentialSource } from "./bedrock-credential-source.js";
import { createBedrockDecisionModel } from "./bedrock-decision-model.js";
import { createBedrockEmbeddingModel } from "./bedrock-embedding-model.js";
import { bedrockDefaultPrices, bedrockModels } from "./bedrock-models.js";
import { bedrockDefaultRegion, type BedrockSettings, bedrockSettingsInputSchema, bedrockSettingsSchema } from "./bedrock-settings.js";
import { createBedrockTokenCounter } from "./bedrock-token-counter.js";

// One client per connection and capability set: the models of one adapter share it (and its assumed-role cache).
const clients = new WeakMap<AdapterConnection, BedrockClient>();

function clientOf(connection: AdapterConnection, settings: BedrockSettings, dependencies: ProviderAdapterDependencies): BedrockClient {
  let client = clients.get(connection);
  if (client === undefined) {
    const credentials = createBedrockCredentialSource({ connection, settings, sts: { transport: dependencies.transport } });
    client = createBedrockClient({ connection, settings, transport: dependencies.transport, credentials });
    clients.set(connection, client);
  }
  return client;
}

/**
 * Amazon Bedrock: chat through Converse / ConverseStream (every caller format translated from
 * the neutral request), embeddings through InvokeModel (Titan, Cohere), token counts through
 * CountTokens (Claude; the local counter otherwise), decisions with stated probabilities. Each
 * request is SigV4-signed with the connection's keys (credential JSON `{"accessKeyId",
 * "secretAccessKey", "sessionToken"?}`), else the AWS environment variables, optionally
 * assuming `settings.roleArn` through STS; `settings.region` picks the endpoint.
 */
export const provider = defineProvider<BedrockSettings>({
  kind: "bedrock",
  label: "Amazon Bedrock",
  network: true,
  // The endpoint of the connection's region is used; this is the default region's.
  defaultBaseUrl: bedrockRuntimeUrl(bedrockDefaultRegion),
  baseUrlPathIsApiRoot: true,
  // Requests are signed per call (SigV4): no static credential header.
  credentialHeaders: () => ({}),
  settingsSchema: bedrockSettingsSchema,
  settingsInputSchema: bedrockSettingsInputSchema,
  models: bedrockModels,
  defaultPrices: bedrockDefaultPrices,
  connectionTest: bedrockConnectionTest,
  chat: (connection, settings, dependencies) => createBedrockChatModel({ client: clientOf(connection, settings, dependencies), settings, provider: connection.name }),
  embeddings: (connection, settings, dependencies) => createBedrockEmbeddingModel({ client: clientOf(connection, settings, dependencies), provider: connection.name }),
  tokenCounter: (connection, settings, dependencies) => createBedrockTokenCounter({ client: clientOf(connection, settings, dependencies), provider: connection.name }),
  decisions: (connection, settings, dependencies) => createBedrockDecisionModel({ client: clientOf(connection, settings, dependencies), provider: connection.name }),
});

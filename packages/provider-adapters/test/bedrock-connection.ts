import type { AdapterConnection, ProviderTarget } from "../src/index.js";
import type { BedrockMock } from "./mocks/bedrock-mock.js";

/** The keys the Bedrock mock of the adapter tests accepts. */
export const bedrockTestKeys = {
  AKIAGATEWAYTEST00001: { secretAccessKey: "gateway-test-secret-access-key-0123456789" },
};

/** A `bedrock` connection signing with the test keys against the mock (its region in the settings). */
export function bedrockConnection(mock: BedrockMock, extra: Partial<AdapterConnection> = {}): AdapterConnection {
  return {
    id: "conn_bedrock",
    name: "bedrock-test",
    kind: "bedrock",
    baseUrl: mock.url,
    credential: JSON.stringify({ accessKeyId: "AKIAGATEWAYTEST00001", secretAccessKey: bedrockTestKeys.AKIAGATEWAYTEST00001.secretAccessKey }),
    headers: {},
    settings: { region: mock.region },
    ...extra,
  };
}

/** A target of the connection for a model in the gateway's `<vendor>/<model>` form. */
export function bedrockTarget(connection: AdapterConnection, upstreamModel = "anthropic/claude-sonnet-4-20250514-v1:0"): ProviderTarget {
  return { connection, upstreamModel, qualifiedModel: `${connection.name}/${upstreamModel}` };
}

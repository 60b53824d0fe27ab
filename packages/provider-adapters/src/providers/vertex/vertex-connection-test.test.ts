import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestServiceAccount } from "../../../test/mocks/google-service-account.js";
import { type VertexMock, startVertexMock } from "../../../test/mocks/vertex-mock.js";
import { createOutboundFetch } from "../../outbound/create-outbound-fetch.js";
import { provider } from "./provider.js";

const account = createTestServiceAccount();
let mock: VertexMock;

beforeAll(async () => {
  mock = await startVertexMock({ project: "test-project", location: "us-east5", serviceAccount: account });
});

afterAll(async () => {
  await mock?.close();
});

describe("vertex connection test", () => {
  it("is a token count with the connection's first Claude model, authorized by a fresh token, that the upstream answers 2xx", async () => {
    const connection = {
      id: "conn_vertex",
      name: "vertex-test",
      kind: "vertex",
      baseUrl: mock.url,
      credential: account.credential(mock.tokenUrl),
      headers: {},
      models: ["anthropic/claude-sonnet-4@20250514"],
      settings: { project: "test-project", location: "us-east5" },
    };
    const settings = provider.settingsSchema.parse(connection);
    const outboundFetch = createOutboundFetch();
    const request = await provider.connectionTest!(connection, settings, { fetch: outboundFetch });
    expect(request.url).toBe(`${mock.url}/v1/projects/test-project/locations/us-east5/publishers/anthropic/models/count-tokens:rawPredict`);
    const response = await outboundFetch(request.url, { method: request.method, headers: request.headers, body: request.body ?? null });
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ input_tokens: expect.any(Number) });
    expect(request.headers.authorization).toBe(`Bearer ${mock.issuedTokens.at(-1)}`);
  });
});

import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { callContext, collect, rejectionOf } from "../../../test/fake-upstream.js";
import { chatCompletions, embeddings } from "../../../test/adapter-calls.js";
import { type AzureOpenAiMock, startAzureOpenAiMock } from "../../../test/mocks/azure-openai-mock.js";
import { createHttpTransport, type HttpTransport } from "../../http-transport.js";
import type { AdapterConnection, ProviderTarget } from "../../provider-adapter.js";
import { createProviderAdapter } from "../provider-registry.js";

const apiKey = "azure-key-0123456789abcdef0123456789ab";
const entra = { tenantId: "contoso", clientId: "client-1", clientSecret: "entra~secret~value~0123456789" };
let mock: AzureOpenAiMock;
let transport: HttpTransport;

beforeAll(async () => {
  mock = await startAzureOpenAiMock({ apiKey, deployments: { "gpt4o-prod": "gpt-4o", "embed-prod": "text-embedding-3-small" }, entra });
  transport = createHttpTransport();
});
afterAll(async () => {
  await transport?.close();
  await mock?.close();
});

function connection(extra: Partial<AdapterConnection> = {}): AdapterConnection {
  return {
    id: "con_azure",
    name: "azure",
    kind: "azure-openai",
    baseUrl: mock.url,
    credential: apiKey,
    headers: {},
    settings: { deployments: { "openai/gpt-4o": "gpt4o-prod", "openai/text-embedding-3-small": "embed-prod" } },
    ...extra,
  };
}
const target = (of: AdapterConnection, model = "openai/gpt-4o"): ProviderTarget => ({ connection: of, upstreamModel: model.split("/")[1]!, qualifiedModel: `${of.name}/${model}` });
const adapterOf = (of: AdapterConnection) => createProviderAdapter(of, { transport, fetch });

describe("azure-openai models", () => {
  it("decodes Azure's stream, its choice-less prompt-filter chunk first, with usage", async () => {
    const of = connection();
    const result = await chatCompletions(adapterOf(of), { model: "x", messages: [{ role: "user", content: "Hi" }], stream: true }, target(of), callContext());
    if (result.kind !== "stream") throw new Error("expected a stream");
    const parts = (await collect(result.frames)).flatMap((frame) => frame.parts);
    expect(parts.filter((part) => part.type === "text-delta").map((part) => (part as { text: string }).text).join("")).toBe("Hello from Azure.");
    expect(parts.find((part) => part.type === "finish")).toMatchObject({ reason: "stop" });
    expect(parts.find((part) => part.type === "usage")).toMatchObject({ usage: { inputTokens: 19, outputTokens: 7 } });
    expect(parts.at(-1)).toEqual({ type: "end" });
  });

  it("ends a cut stream with an error part", async () => {
    const of = connection();
    const result = await chatCompletions(adapterOf(of), { model: "x", messages: [{ role: "user", content: "CUT_STREAM" }], stream: true }, target(of), callContext());
    if (result.kind !== "stream") throw new Error("expected a stream");
    const parts = (await collect(result.frames)).flatMap((frame) => frame.parts);
    expect(parts.at(-1)).toMatchObject({ type: "error" });
  });

  it("maps a filtered prompt, an unknown deployment and a refused key, never echoing the key", async () => {
    const of = connection();
    const filtered = await rejectionOf(chatCompletions(adapterOf(of), { model: "x", messages: [{ role: "user", content: "FILTER_PROMPT" }] }, target(of), callContext()));
    expect(filtered).toMatchObject({ code: "invalid_request", param: "prompt", retryable: false, details: { upstreamCode: "content_filter", filteredCategories: ["jailbreak", "violence"] } });
    const missing = await rejectionOf(chatCompletions(adapterOf(of), { model: "x", messages: [{ role: "user", content: "Hi" }] }, target(of, "openai/gpt-5"), callContext()));
    expect(missing).toMatchObject({ code: "model_not_found" });
    const wrongKey = connection({ credential: "wrong-azure-key-9876543210" });
    const refused = await rejectionOf(chatCompletions(adapterOf(wrongKey), { model: "x", messages: [{ role: "user", content: "Hi" }] }, target(wrongKey), callContext()));
    expect(refused).toMatchObject({ code: "upstream_error", details: { upstreamStatus: 401 } });
    expect(JSON.stringify({ message: refused.message, details: refused.details })).not.toContain("wrong-azure-key");
  });

  it("calls with an Entra ID token on the v1 API, the deployment as model", async () => {
    const of = connection({
      credential: entra.clientSecret,
      settings: { apiStyle: "v1", deployments: { "openai/text-embedding-3-small": "embed-prod" }, entra: { tenantId: entra.tenantId, clientId: entra.clientId, authorityHost: mock.url } },
    });
    const result = await embeddings(adapterOf(of), { model: "x", input: "a" }, target(of, "openai/text-embedding-3-small"), callContext());
    expect(result).toMatchObject({ kind: "json", status: 200, usage: { inputTokens: 4 } });
    expect(mock.requests.at(-1)).toMatchObject({ path: "/openai/v1/embeddings", body: { model: "embed-prod" }, headers: { authorization: `Bearer ${mock.issuedTokens.at(-1)}` } });
  });
});

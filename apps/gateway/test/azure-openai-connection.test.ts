import type { ControlPlaneSnapshot, SnapshotConnection } from "@gateway/contracts";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import Anthropic from "@anthropic-ai/sdk";
import OpenAI, { AzureOpenAI } from "openai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type AzureOpenAiMock, startAzureOpenAiMock } from "../../../packages/provider-adapters/test/mocks/azure-openai-mock.js";
import { createGatewayTestSnapshot, testApiKey } from "./support/create-gateway-test-snapshot.js";
import { decisionBody, postDecision } from "./support/post-decision.js";
import { type TestGateway, startTestGateway } from "./support/start-test-gateway.js";

const apiKey = "azure-key-0123456789abcdef0123456789ab";
const entra = { tenantId: "contoso.onmicrosoft.com", clientId: "11111111-2222-3333-4444-555555555555", clientSecret: "entra~client~secret~value~0123456789" };
const deployments = { "openai/gpt-4o": "gpt4o-prod", "openai/text-embedding-3-small": "embed-prod" };
const weatherTool = {
  type: "function" as const,
  function: { name: "get_weather", description: "Weather of a city", parameters: { type: "object", properties: { city: { type: "string" } }, required: ["city"] } },
};

let mock: AzureOpenAiMock;
let failingOpenAi: Server;
let gateway: TestGateway;
let openai: OpenAI;
let anthropic: Anthropic;
let baseSnapshot: ControlPlaneSnapshot;

function azureConnection(fields: Partial<SnapshotConnection> & Pick<SnapshotConnection, "id" | "name">): SnapshotConnection {
  return {
    organizationId: "org_1",
    kind: "azure-openai",
    baseUrl: mock.url,
    credential: apiKey,
    headers: {},
    models: ["openai/gpt-4o", "openai/text-embedding-3-small"],
    upstreamModelNames: {},
    enabled: true,
    prices: {},
    logprobs: null,
    defaultMaxTokens: null,
    timeouts: {},
    responsesApi: null,
    modelEndpoints: {},
    settings: { deployments },
    ...fields,
  };
}

beforeAll(async () => {
  mock = await startAzureOpenAiMock({ apiKey, deployments: { "gpt4o-prod": "gpt-4o", "embed-prod": "text-embedding-3-small", "gpt4o-canary": "gpt-4o" }, entra });
  failingOpenAi = createServer((_request, response) => {
    response.writeHead(503, { "content-type": "application/json" });
    response.end(JSON.stringify({ error: { message: "overloaded", type: "server_error" } }));
  }).listen(0, "127.0.0.1");
  await new Promise<void>((resolve) => failingOpenAi.once("listening", () => resolve()));
  const failingUrl = `http://127.0.0.1:${(failingOpenAi.address() as AddressInfo).port}`;
  const base = createGatewayTestSnapshot({ openai: failingUrl });
  baseSnapshot = {
    ...base,
    connections: [
      ...base.connections.map((connection) => (connection.name === "openai-mock" ? { ...connection, models: ["openai/gpt-4o"], upstreamModelNames: {} } : connection)),
      azureConnection({ id: "con_azure", name: "azure" }),
      azureConnection({
        id: "con_azure_v1",
        name: "azure-v1",
        credential: entra.clientSecret,
        settings: { deployments, apiStyle: "v1", entra: { tenantId: entra.tenantId, clientId: entra.clientId, authorityHost: mock.url } },
      }),
    ],
    routes: [
      {
        id: "route_gpt4o",
        organizationId: "org_1",
        alias: "gpt-4o",
        strategy: "priority",
        targets: [
          { model: "openai-mock/openai/gpt-4o", weight: 1 },
          { model: "azure/openai/gpt-4o", weight: 1 },
        ],
        affinity: { enabled: false, ttlSeconds: 60 },
        retry: { maxAttempts: 1 },
      },
    ],
  };
  gateway = await startTestGateway(baseSnapshot);
  openai = new OpenAI({ baseURL: `${gateway.url}/v1`, apiKey: testApiKey, maxRetries: 0 });
  anthropic = new Anthropic({ baseURL: gateway.url, apiKey: testApiKey, maxRetries: 0 });
});

afterAll(async () => {
  await gateway?.close();
  await mock?.close();
  await new Promise<void>((resolve) => (failingOpenAi ? failingOpenAi.close(() => resolve()) : resolve()));
});

const lastRequest = () => mock.requests.at(-1)!;
const requestIdOf = (response: Response) => response.headers.get("x-request-id") ?? "";

describe("the Azure OpenAI mock, checked with the openai package's AzureOpenAI client", () => {
  it("answers chat (JSON and stream) and embeddings on deployment paths with the api-version", async () => {
    const client = new AzureOpenAI({ endpoint: mock.url, apiKey, apiVersion: "2024-10-21", maxRetries: 0 });
    const completion = await client.chat.completions.create({ model: "gpt4o-prod", messages: [{ role: "user", content: "Hi" }] });
    expect(completion.choices[0]?.message.content).toBe("Hello from Azure.");
    expect(lastRequest()).toMatchObject({ path: "/openai/deployments/gpt4o-prod/chat/completions", headers: { "api-key": apiKey } });
    expect(lastRequest().query.get("api-version")).toBe("2024-10-21");
    let text = "";
    for await (const chunk of await client.chat.completions.create({ model: "gpt4o-prod", messages: [{ role: "user", content: "Hi" }], stream: true })) {
      text += chunk.choices[0]?.delta?.content ?? "";
    }
    expect(text).toBe("Hello from Azure.");
    const embedding = await client.embeddings.create({ model: "embed-prod", input: "a" });
    expect(embedding.data[0]?.embedding).toHaveLength(3);
    await expect(client.chat.completions.create({ model: "gpt4o-prod", messages: [{ role: "user", content: "FILTER_PROMPT" }] })).rejects.toMatchObject({
      status: 400,
      code: "content_filter",
    });
  });

  it("accepts Entra ID tokens from its token endpoint (the client's token provider) and serves the v1 API", async () => {
    const tokenResponse = await fetch(`${mock.url}/${entra.tenantId}/oauth2/v2.0/token`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ client_id: entra.clientId, client_secret: entra.clientSecret, grant_type: "client_credentials", scope: "https://cognitiveservices.azure.com/.default" }),
    });
    const { access_token: token } = (await tokenResponse.json()) as { access_token: string };
    const client = new AzureOpenAI({ endpoint: mock.url, azureADTokenProvider: async () => token, apiVersion: "2024-10-21", deployment: "gpt4o-prod", maxRetries: 0 });
    const completion = await client.chat.completions.create({ model: "", messages: [{ role: "user", content: "Hi" }] });
    expect(completion.choices[0]?.finish_reason).toBe("stop");
    expect(lastRequest().headers.authorization).toBe(`Bearer ${token}`);
    const v1 = new OpenAI({ baseURL: `${mock.url}/openai/v1`, apiKey: "unused", defaultHeaders: { "api-key": apiKey }, maxRetries: 0 });
    const response = await v1.responses.create({ model: "gpt4o-prod", input: "Hi" });
    expect(response.output_text).toBe("Hello from Azure Responses.");
  });
});

describe("the gateway through an azure-openai connection", () => {
  it("chat completions: JSON with tools goes to the model's deployment with the api-key; usage is recorded", async () => {
    const { data, response } = await openai.chat.completions
      .create({ model: "azure/openai/gpt-4o", messages: [{ role: "user", content: "Weather in Paris?" }], tools: [weatherTool] })
      .withResponse();
    expect(data.choices[0]?.finish_reason).toBe("tool_calls");
    expect(data.choices[0]?.message.tool_calls?.[0]).toMatchObject({ type: "function", function: { name: "get_weather", arguments: '{"city":"Paris"}' } });
    const upstream = lastRequest();
    expect(upstream.path).toBe("/openai/deployments/gpt4o-prod/chat/completions");
    expect(upstream.query.get("api-version")).toBe("2024-10-21");
    expect(upstream.headers["api-key"]).toBe(apiKey);
    expect(upstream.headers.authorization).toBeUndefined();
    const event = await gateway.eventFor(requestIdOf(response));
    expect(event).toMatchObject({ endpoint: "chat_completions", status: 200, provider: "azure", model: "openai/gpt-4o", inputTokens: 19, outputTokens: 7 });
    expect(event.costMicros).toBeGreaterThan(0);
  });

  it("chat completions: a stream passes Azure's chunks through, content filter results included", async () => {
    const stream = await openai.chat.completions.create({ model: "azure/openai/gpt-4o", messages: [{ role: "user", content: "Hi" }], stream: true });
    let text = "";
    const finishReasons: string[] = [];
    for await (const chunk of stream) {
      text += chunk.choices[0]?.delta?.content ?? "";
      if (chunk.choices[0]?.finish_reason) finishReasons.push(chunk.choices[0].finish_reason);
    }
    expect(text).toBe("Hello from Azure.");
    expect(finishReasons).toEqual(["stop"]);
    expect(lastRequest().body.stream_options).toEqual({ include_usage: true });
  });

  it("finish_reason content_filter reaches the caller; a filtered prompt is a 400 in each caller's format, without retries elsewhere", async () => {
    const filtered = await openai.chat.completions.create({ model: "azure/openai/gpt-4o", messages: [{ role: "user", content: "FILTER_OUTPUT" }] });
    expect(filtered.choices[0]?.finish_reason).toBe("content_filter");
    const before = mock.requests.length;
    const chatError = await openai.chat.completions.create({ model: "azure/openai/gpt-4o", messages: [{ role: "user", content: "FILTER_PROMPT" }] }).catch((error: unknown) => error);
    expect(chatError).toBeInstanceOf(OpenAI.BadRequestError);
    expect((chatError as InstanceType<typeof OpenAI.BadRequestError>).error).toMatchObject({
      param: "prompt",
      message: expect.stringContaining("content filter"),
      details: { filteredCategories: ["jailbreak", "violence"] },
    });
    expect(mock.requests.length).toBe(before + 1);
    const messagesError = await anthropic.messages.create({ model: "azure/openai/gpt-4o", max_tokens: 100, messages: [{ role: "user", content: "FILTER_PROMPT" }] }).catch((error: unknown) => error);
    expect(messagesError).toBeInstanceOf(Anthropic.BadRequestError);
    expect((messagesError as InstanceType<typeof Anthropic.BadRequestError>).error).toMatchObject({ type: "error", error: { type: "invalid_request_error" } });
  });

  it("messages: JSON and stream with tools, translated to the deployment's chat completions", async () => {
    const message = await anthropic.messages.create({
      model: "azure/openai/gpt-4o",
      max_tokens: 200,
      messages: [{ role: "user", content: "Weather in Paris?" }],
      tools: [{ name: "get_weather", description: "Weather", input_schema: { type: "object", properties: { city: { type: "string" } } } }],
    });
    expect(message.stop_reason).toBe("tool_use");
    expect(message.content.find((block) => block.type === "tool_use")).toMatchObject({ name: "get_weather", input: { city: "Paris" } });
    expect(lastRequest().path).toBe("/openai/deployments/gpt4o-prod/chat/completions");
    const stream = anthropic.messages.stream({ model: "azure/openai/gpt-4o", max_tokens: 200, messages: [{ role: "user", content: "Hi" }] });
    const final = await stream.finalMessage();
    expect(final.content[0]).toMatchObject({ type: "text", text: "Hello from Azure." });
    expect(final.usage.output_tokens).toBe(7);
  });

  it("responses: translated to chat on the deployments API; passed through on the v1 API with an Entra ID token, cached", async () => {
    const translated = await openai.responses.create({ model: "azure/openai/gpt-4o", input: "Hi" });
    expect(translated.output_text).toBe("Hello from Azure.");
    expect(lastRequest().path).toBe("/openai/deployments/gpt4o-prod/chat/completions");

    const tokensBefore = mock.issuedTokens.length;
    const native = await openai.responses.create({ model: "azure-v1/openai/gpt-4o", input: "Hi" });
    expect(native.output_text).toBe("Hello from Azure Responses.");
    const upstream = lastRequest();
    expect(upstream).toMatchObject({ path: "/openai/v1/responses", body: { model: "gpt4o-prod", store: false } });
    expect(upstream.headers.authorization).toBe(`Bearer ${mock.issuedTokens.at(-1)}`);
    expect(upstream.headers["api-key"]).toBeUndefined();
    const stream = await openai.responses.create({ model: "azure-v1/openai/gpt-4o", input: "Hi", stream: true });
    let text = "";
    for await (const event of stream) if (event.type === "response.output_text.delta") text += event.delta;
    expect(text).toBe("Hello from Azure Responses.");
    const chat = await openai.chat.completions.create({ model: "azure-v1/openai/gpt-4o", messages: [{ role: "user", content: "Hi" }], tools: [weatherTool], stream: true });
    const toolNames: string[] = [];
    for await (const chunk of chat) for (const call of chunk.choices[0]?.delta?.tool_calls ?? []) if (call.function?.name) toolNames.push(call.function.name);
    expect(toolNames).toEqual(["get_weather"]);
    expect(lastRequest()).toMatchObject({ path: "/openai/v1/chat/completions", body: { model: "gpt4o-prod" } });
    // One token for all of these calls (cached until shortly before it expires).
    expect(mock.issuedTokens.length - tokensBefore).toBe(1);
    const tokenRequest = mock.requests.find((request) => request.path.endsWith("/oauth2/v2.0/token"))!;
    expect(tokenRequest.path).toBe(`/${entra.tenantId}/oauth2/v2.0/token`);
  });

  it("embeddings go to the embedding model's deployment", async () => {
    const { data, response } = await openai.embeddings.create({ model: "azure/openai/text-embedding-3-small", input: ["one", "two"] }).withResponse();
    expect(data.data).toHaveLength(2);
    expect(lastRequest()).toMatchObject({ path: "/openai/deployments/embed-prod/embeddings", body: { model: "embed-prod", input: ["one", "two"] } });
    expect(await gateway.eventFor(requestIdOf(response))).toMatchObject({ endpoint: "embeddings", provider: "azure", inputTokens: 8 });
  });

  it("decisions: labels weighed from the deployment's log-probabilities", async () => {
    const response = await postDecision(gateway.url, { apiKey: testApiKey, body: decisionBody("azure/openai/gpt-4o") });
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    expect(response.body.answers.escalate.type).toBe("noul");
    expect(lastRequest()).toMatchObject({ path: "/openai/deployments/gpt4o-prod/chat/completions", body: { logprobs: true, model: "gpt4o-prod" } });
  });

  it("falls back from a failing openai connection to the same model on Azure", async () => {
    const { data, response } = await openai.chat.completions.create({ model: "gpt-4o", messages: [{ role: "user", content: "Hi" }] }).withResponse();
    expect(data.choices[0]?.message.content).toBe("Hello from Azure.");
    expect(await gateway.eventFor(requestIdOf(response))).toMatchObject({ provider: "azure", model: "openai/gpt-4o" });
  });

  it("a wrong key or client secret is a 502 that never shows the secret", async () => {
    const broken: ControlPlaneSnapshot = {
      ...baseSnapshot,
      version: `v${Math.random()}`,
      connections: baseSnapshot.connections.map((connection) =>
        connection.name === "azure" ? { ...connection, credential: "wrong-azure-key-9876543210" } : connection.name === "azure-v1" ? { ...connection, credential: "wrong~secret~9876543210" } : connection,
      ),
    };
    await gateway.setSnapshot(broken);
    try {
      for (const model of ["azure/openai/gpt-4o", "azure-v1/openai/gpt-4o"]) {
        const response = await fetch(`${gateway.url}/v1/chat/completions`, {
          method: "POST",
          headers: { authorization: `Bearer ${testApiKey}`, "content-type": "application/json" },
          body: JSON.stringify({ model, messages: [{ role: "user", content: "Hi" }] }),
        });
        const text = await response.text();
        expect(response.status, text).toBe(502);
        expect(text).not.toContain("wrong-azure-key");
        expect(text).not.toContain("wrong~secret");
      }
    } finally {
      await gateway.setSnapshot({ ...baseSnapshot, version: `v${Math.random()}` });
    }
  });

  it("a settings change reaches the next call: the connection's models are rebuilt with the new deployments", async () => {
    const canary: ControlPlaneSnapshot = {
      ...baseSnapshot,
      version: `v${Math.random()}`,
      connections: baseSnapshot.connections.map((connection) => (connection.name === "azure" ? { ...connection, settings: { deployments: { ...deployments, "openai/gpt-4o": "gpt4o-canary" }, apiVersion: "2025-04-01-preview" } } : connection)),
    };
    await gateway.setSnapshot(canary);
    try {
      await openai.chat.completions.create({ model: "azure/openai/gpt-4o", messages: [{ role: "user", content: "Hi" }] });
      expect(lastRequest().path).toBe("/openai/deployments/gpt4o-canary/chat/completions");
      expect(lastRequest().query.get("api-version")).toBe("2025-04-01-preview");
    } finally {
      await gateway.setSnapshot({ ...baseSnapshot, version: `v${Math.random()}` });
    }
  });
});

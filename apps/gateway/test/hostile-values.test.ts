import type { ControlPlaneSnapshot } from "@gateway/contracts";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createGatewayTestSnapshot, testApiKey } from "./support/create-gateway-test-snapshot.js";
import { type MockProvider, anthropicToolUseHandler, openAiChatHandler, startMockProvider, systemOneHandler } from "./support/mock-provider.js";
import { type TestGateway, startTestGateway } from "./support/start-test-gateway.js";
import { type WireProvider, anthropicHandler, openAiHandler, responsesHandler, startWireProvider } from "./support/wire-format-providers.js";

// Numbers beyond their domain and field names of Object.prototype, end to end. Bodies are sent
// as raw JSON text: JSON.parse on the gateway makes `__proto__` an own key, and 9007199254740993
// (2^53 + 1) or 1e300 arrive as the numbers a careless or hostile client sends.

const openAiModel = "openai-mock/openai/gpt-4o-mini";
const anthropicModel = "anthropic-mock/anthropic/claude-sonnet-4";
const responsesModel = "openai-native/openai/gpt-4.1-mini";
const embeddingModel = "openai-native/openai/text-embedding-3-small";
const messages = '[{"role":"user","content":"Hi"}]';

let openaiUpstream: WireProvider;
let anthropicUpstream: WireProvider;
let responsesUpstream: WireProvider;
let native: MockProvider;
let openaiDecisions: MockProvider;
let anthropicDecisions: MockProvider;
let gateway: TestGateway;
let limited: TestGateway;

beforeAll(async () => {
  openaiUpstream = await startWireProvider(openAiHandler());
  anthropicUpstream = await startWireProvider(anthropicHandler());
  responsesUpstream = await startWireProvider(responsesHandler());
  native = await startMockProvider(systemOneHandler());
  openaiDecisions = await startMockProvider(openAiChatHandler(() => [{ token: "A", logprob: Math.log(0.75) }, { token: "B", logprob: Math.log(0.25) }]));
  anthropicDecisions = await startMockProvider(anthropicToolUseHandler([0.6, 0.4]));
  const base = createGatewayTestSnapshot({ openai: openaiUpstream.url, anthropic: anthropicUpstream.url, systemone: native.baseUrl });
  const openaiConnection = base.connections.find((connection) => connection.name === "openai-mock")!;
  const anthropicConnection = base.connections.find((connection) => connection.name === "anthropic-mock")!;
  const snapshot: ControlPlaneSnapshot = {
    ...base,
    connections: [
      ...base.connections,
      {
        ...openaiConnection,
        id: "con_native_responses",
        name: "openai-native",
        baseUrl: `${responsesUpstream.url}/v1`,
        responsesApi: true,
        models: ["openai/gpt-4.1-mini", "openai/text-embedding-3-small"],
        upstreamModelNames: { "openai/gpt-4.1-mini": "gpt-4.1-mini", "openai/text-embedding-3-small": "text-embedding-3-small" },
        prices: {},
      },
      { ...openaiConnection, id: "con_openai_decisions", name: "openai-decisions", baseUrl: `${openaiDecisions.baseUrl}/v1` },
      { ...anthropicConnection, id: "con_anthropic_decisions", name: "anthropic-decisions", baseUrl: anthropicDecisions.baseUrl },
    ],
  };
  gateway = await startTestGateway(snapshot);
  // A hard budget and a token rate limit: every chat call is estimated from its output cap.
  limited = await startTestGateway({
    ...snapshot,
    budgets: [{ id: "bud_hard", organizationId: "org_1", name: "cap", scope: "project", scopeId: "prj_main", amountMicros: 50_000_000, period: "month", mode: "hard", thresholds: [] }],
    rateLimits: [{ id: "rl_tokens", organizationId: "org_1", scope: "project", scopeId: "prj_main", windowSeconds: 60, requestsPerWindow: null, tokensPerWindow: 1_000_000, concurrency: null }],
  });
});

afterAll(async () => {
  await Promise.all([gateway?.close(), limited?.close()]);
  await Promise.all([openaiUpstream?.close(), anthropicUpstream?.close(), responsesUpstream?.close()]);
  await Promise.all([native?.close(), openaiDecisions?.close(), anthropicDecisions?.close()]);
});

beforeEach(() => {
  for (const upstream of [openaiUpstream, anthropicUpstream, responsesUpstream]) upstream.requests.length = 0;
  for (const upstream of [native, openaiDecisions, anthropicDecisions]) upstream.requests.length = 0;
});

async function post(target: TestGateway, path: string, body: string): Promise<{ status: number; requestId: string; body: any }> {
  const response = await fetch(`${target.url}${path}`, {
    method: "POST",
    headers: { authorization: `Bearer ${testApiKey}`, "content-type": "application/json" },
    body,
  });
  return { status: response.status, requestId: response.headers.get("x-request-id") ?? "", body: await response.json() };
}

const upstreamRequests = () => openaiUpstream.requests.length + anthropicUpstream.requests.length + responsesUpstream.requests.length;

describe("numbers beyond their domain answer 400 invalid_request naming the field, under a hard budget and a token limit", () => {
  const tooLarge = ["9007199254740993", "1e300", "2147483648", "1e400"];

  it.each([
    ["/v1/chat/completions", openAiModel, "max_tokens"],
    ["/v1/chat/completions", openAiModel, "max_completion_tokens"],
    ["/v1/chat/completions", anthropicModel, "max_tokens"],
    ["/v1/chat/completions", anthropicModel, "max_completion_tokens"],
  ])("%s on %s: %s", async (path, model, field) => {
    for (const value of tooLarge) {
      const response = await post(limited, path, `{"model":"${model}","messages":${messages},"${field}":${value}}`);
      expect(response.status, value).toBe(400);
      expect(response.body.error).toMatchObject({ code: "invalid_request", param: field });
      expect(response.body.error.message).toContain("2147483647");
      expect(response.requestId).toMatch(/^req_/);
    }
    expect(upstreamRequests()).toBe(0);
  });

  it.each([
    ["/v1/messages", openAiModel],
    ["/v1/messages", anthropicModel],
    ["/v1/messages/count_tokens", openAiModel],
    ["/v1/messages/count_tokens", anthropicModel],
  ])("%s on %s: max_tokens, in the Anthropic error body", async (path, model) => {
    for (const value of tooLarge) {
      const response = await post(limited, path, `{"model":"${model}","messages":${messages},"max_tokens":${value}}`);
      expect(response.status, value).toBe(400);
      expect(response.body).toMatchObject({ type: "error", error: { type: "invalid_request_error" } });
      expect(response.body.error.message).toContain("'max_tokens'");
      expect(response.requestId).toMatch(/^req_/);
    }
    expect(upstreamRequests()).toBe(0);
  });

  it("the other number fields of chat, messages, responses and embeddings", async () => {
    const cases: [TestGateway, string, string, string][] = [
      [gateway, "/v1/chat/completions", `{"model":"${openAiModel}","messages":${messages},"temperature":1e300}`, "temperature"],
      [gateway, "/v1/chat/completions", `{"model":"${openAiModel}","messages":${messages},"n":1e300}`, "n"],
      [gateway, "/v1/chat/completions", `{"model":"${openAiModel}","messages":${messages},"seed":1e300}`, "seed"],
      [gateway, "/v1/chat/completions", `{"model":"${openAiModel}","messages":${messages},"top_logprobs":1e300}`, "top_logprobs"],
      [gateway, "/v1/chat/completions", `{"model":"${openAiModel}","messages":${messages},"logit_bias":{"50256":1e300}}`, "logit_bias.50256"],
      [limited, "/v1/responses", `{"model":"${responsesModel}","input":"Hi","max_output_tokens":9007199254740993}`, "max_output_tokens"],
      [limited, "/v1/responses", `{"model":"${openAiModel}","input":"Hi","max_output_tokens":1e300}`, "max_output_tokens"],
      [gateway, "/v1/responses", `{"model":"${responsesModel}","input":"Hi","top_p":1e300}`, "top_p"],
      [gateway, "/v1/embeddings", `{"model":"${embeddingModel}","input":"Hi","dimensions":1e300}`, "dimensions"],
      [gateway, "/v1/embeddings", `{"model":"${embeddingModel}","input":[1,1e300]}`, "input"],
    ];
    for (const [target, path, body, param] of cases) {
      const response = await post(target, path, body);
      expect(response.status, body).toBe(400);
      expect(response.body.error, body).toMatchObject({ code: "invalid_request", param });
    }
    for (const [path, body, field] of [
      ["/v1/messages", `{"model":"${anthropicModel}","max_tokens":10,"messages":${messages},"top_k":1e300}`, "top_k"],
      ["/v1/messages", `{"model":"${anthropicModel}","max_tokens":10,"messages":${messages},"temperature":1e300}`, "temperature"],
    ]) {
      const response = await post(gateway, path!, body!);
      expect(response.status, body).toBe(400);
      expect(response.body.error.message).toContain(`'${field}'`);
    }
    expect(upstreamRequests()).toBe(0);
  });

  it("a decision with an output cap is refused whatever the number", async () => {
    const response = await post(limited, "/v1/systemone", '{"model":"demo/demo/decider","state":"s","questions":{"q":{"type":"noul","instructions":"i"}},"max_tokens":1e300}');
    expect(response.status).toBe(400);
    expect(response.body.error).toMatchObject({ code: "invalid_request", param: "max_tokens" });
  });

  it("a cap within bounds is still admitted and forwarded", async () => {
    const response = await post(limited, "/v1/chat/completions", `{"model":"${openAiModel}","messages":${messages},"max_tokens":1000}`);
    expect(response.status).toBe(200);
    expect(openaiUpstream.requests[0]!.body.max_tokens).toBe(1000);
    // Messages are capped by max_tokens alone: an unknown max_completion_tokens is the provider's business.
    const messagesCall = await post(limited, "/v1/messages", `{"model":"${anthropicModel}","max_tokens":10,"messages":${messages},"max_completion_tokens":1e300}`);
    expect(messagesCall.status).toBe(200);
  });
});

describe("field names of Object.prototype are fields like any other", () => {
  const inherited = ["valueOf", "hasOwnProperty", "__proto__", "toString", "constructor"];

  it.each(inherited)("'%s' is refused by name where a translation cannot represent unknown fields", async (name) => {
    const translated: [string, string, string][] = [
      ["/v1/messages", openAiModel, `{"model":"${openAiModel}","max_tokens":10,"messages":${messages},"${name}":{}}`],
      ["/v1/messages/count_tokens", openAiModel, `{"model":"${openAiModel}","messages":${messages},"${name}":{}}`],
      ["/v1/chat/completions", anthropicModel, `{"model":"${anthropicModel}","messages":${messages},"${name}":{}}`],
      ["/v1/responses", openAiModel, `{"model":"${openAiModel}","input":"Hi","${name}":{}}`],
      ["/v1/responses", anthropicModel, `{"model":"${anthropicModel}","input":"Hi","${name}":{}}`],
    ];
    for (const [path, model, body] of translated) {
      const response = await post(gateway, path, body);
      expect(response.status, `${path} ${model}`).toBe(400);
      expect(response.requestId).toMatch(/^req_/);
      if (path.startsWith("/v1/messages")) {
        expect(response.body.error.type).toBe("invalid_request_error");
        expect(response.body.error.message).toContain(`'${name}'`);
      } else {
        expect(response.body.error).toMatchObject({ code: "unsupported_feature", param: name });
      }
    }
    expect(upstreamRequests()).toBe(0);
  });

  it.each(inherited)("'%s' passes through to a native provider like any unknown field", async (name) => {
    const chat = await post(gateway, "/v1/chat/completions", `{"model":"${openAiModel}","messages":${messages},"${name}":{"kept":1}}`);
    const message = await post(gateway, "/v1/messages", `{"model":"${anthropicModel}","max_tokens":10,"messages":${messages},"${name}":{"kept":1}}`);
    expect([chat.status, message.status]).toEqual([200, 200]);
    for (const upstream of [openaiUpstream, anthropicUpstream]) {
      expect(Object.getOwnPropertyDescriptor(upstream.requests[0]!.body, name)?.value).toEqual({ kept: 1 });
    }
  });
});

describe("/v1/systemone: questions and criteria named like Object.prototype members", () => {
  const decision = (model: string, questions: string) => `{"model":"${model}","state":"The parcel arrived broken.","questions":${questions}}`;
  const answerOf = (body: any, key: string) => Object.getOwnPropertyDescriptor(body.answers, key)?.value;

  it.each(["demo/demo/decider", "openai-decisions/openai/gpt-4o-mini", "anthropic-decisions/anthropic/claude-sonnet-4", "native/systemone/s1"])(
    "a criteria key __proto__ is a choice like any other (%s)",
    async (model) => {
      const response = await post(gateway, "/v1/systemone", decision(model, '{"next":{"type":"choice","instructions":"What next?","criteria":{"__proto__":"refund","constructor":"replace"}}}'));
      expect(response.status).toBe(200);
      expect(["__proto__", "constructor"]).toContain(answerOf(response.body, "next").choice);
      if (model !== "native/systemone/s1") expect(Object.keys(answerOf(response.body, "next").probabilities)).toEqual(["__proto__", "constructor"]);
    },
  );

  it.each(["demo/demo/decider", "anthropic-decisions/anthropic/claude-sonnet-4", "native/systemone/s1"])(
    "a question named __proto__ is answered under that key (%s)",
    async (model) => {
      const response = await post(
        gateway,
        "/v1/systemone",
        decision(model, '{"__proto__":{"type":"choice","instructions":"What next?","criteria":{"refund":null,"replace":null}},"valueOf":{"type":"score","instructions":"How bad?","criteria":["minor","major"]}}'),
      );
      expect(response.status).toBe(200);
      expect(Object.keys(response.body.answers)).toEqual(["__proto__", "valueOf"]);
      expect(answerOf(response.body, "__proto__")).toMatchObject({ type: "choice" });
      expect(answerOf(response.body, "valueOf")).toMatchObject({ type: "score" });
    },
  );

  it("a native provider receives __proto__ keys as sent", async () => {
    const response = await post(
      gateway,
      "/v1/systemone",
      '{"model":"native/systemone/s1","state":{"__proto__":"state"},"__proto__":{"trace":1},"questions":{"__proto__":{"type":"noul","instructions":"i"}}}',
    );
    expect(response.status).toBe(200);
    const sent = native.requests[0]!.body as Record<string, unknown>;
    expect(Object.keys(sent)).toEqual(expect.arrayContaining(["__proto__", "state", "questions"]));
    expect(Object.getOwnPropertyDescriptor(sent, "__proto__")?.value).toEqual({ trace: 1 });
    expect(Object.keys(sent.questions as object)).toEqual(["__proto__"]);
    expect(Object.keys(sent.state as object)).toEqual(["__proto__"]);
  });

  it("a translated provider refuses a top-level __proto__ by name like any other extension", async () => {
    const response = await post(gateway, "/v1/systemone", '{"model":"openai-decisions/openai/gpt-4o-mini","state":"s","__proto__":{},"questions":{"q":{"type":"noul","instructions":"i"}}}');
    expect(response.status).toBe(400);
    expect(response.body.error).toMatchObject({ code: "unsupported_feature", param: "__proto__" });
  });
});

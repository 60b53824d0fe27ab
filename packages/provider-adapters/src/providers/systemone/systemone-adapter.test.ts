import { ProviderPassthroughError } from "@gateway/errors";
import { afterEach, describe, expect, it } from "vitest";
import { callContext, connectionFor, rejectionOf, sendJson, startFakeUpstream, targetFor } from "../../../test/fake-upstream.js";
import type { FakeHandler, FakeUpstream } from "../../../test/fake-upstream.js";
import { createProviderAdapter } from "../provider-registry.js";
import type { DecisionRequest } from "../../decision/decision-contract.js";
import { createHttpTransport } from "../../http-transport.js";
import type { HttpTransport } from "../../http-transport.js";
import { chatCompletions, decide } from "../../../test/adapter-calls.js";

let upstream: FakeUpstream | undefined;
let transport: HttpTransport | undefined;

afterEach(async () => {
  await transport?.close();
  await upstream?.close();
  transport = undefined;
  upstream = undefined;
});

async function setup(handler: FakeHandler) {
  upstream = await startFakeUpstream(handler);
  transport = createHttpTransport();
  const connection = connectionFor("systemone", upstream.url);
  return { adapter: createProviderAdapter(connection, { transport }), target: targetFor(connection, "acme/judge-1"), upstream };
}

const decisionRequest = {
  model: "systemone-test/acme/judge-1",
  state: { text: "hello" },
  questions: {
    tone: { type: "choice", instructions: "Tone?", criteria: { friendly: null, hostile: null }, weight: 2 },
    quality: { type: "score", instructions: "Quality?", criteria: { "1": "bad", "2.5": "ok", "4": "good" } },
  },
  metadata: { customer: "c-1" },
  stream: false,
} as unknown as DecisionRequest;

const goodAnswer = {
  answers: {
    tone: { type: "choice", choice: "friendly", probabilities: { friendly: 0.9, hostile: 0.1 }, confidence: 0.8 },
    quality: { type: "score", score: 3.1, native_extra: true },
  },
  model: "acme/judge-1",
  usage: { input_tokens: 200, output_tokens: 4, total_tokens: 204, input_tokens_details: { cached_tokens: 150 } },
  trace: "abc",
};

describe("systemone adapter: native decisions", () => {
  it("sends the request as given (extensions and object rubrics kept, model replaced) and returns the checked answer", async () => {
    const { adapter, target, upstream } = await setup((_request, response) => sendJson(response, 200, goodAnswer));
    const result = await decide(adapter, decisionRequest, target, callContext());
    const sent = upstream.requests[0]!;
    expect(sent.path).toBe("/v1/systemone");
    expect(sent.headers.authorization).toBe("Bearer sk-test-secret-credential-123456");
    expect(sent.headers["x-extra-header"]).toBe("extra-value");
    expect(sent.body).toEqual({ ...decisionRequest, model: "acme/judge-1" });
    expect(result.response).toEqual(goodAnswer);
    expect(result.usage).toEqual({ inputTokens: 50, outputTokens: 4, cacheReadTokens: 150, cacheWriteTokens: 0, reasoningTokens: 0 });
    expect(adapter.decisions?.passthrough).toEqual(["systemone-decisions"]);
    expect(adapter.chat).toBeUndefined();
  });

  it("passes a non-2xx status and its JSON payload through unchanged", async () => {
    const payload = { error: { message: "rubric too large for this model", code: "rubric_limit" }, extra: [1, 2] };
    const { adapter, target } = await setup((_request, response) => sendJson(response, 422, payload));
    const error = await rejectionOf(decide(adapter, decisionRequest, target, callContext()));
    expect(ProviderPassthroughError.isInstance(error)).toBe(true);
    expect(error.status).toBe(422);
    expect(error.payload).toEqual(payload);
    expect(error.retryable).toBe(false);
  });

  it("passes a 429 through with its Retry-After (HTTP date) and marks it retryable", async () => {
    const date = "Thu, 01 Jan 2026 00:00:10 GMT";
    const { adapter, target } = await setup((_request, response) => sendJson(response, 429, { error: "slow down" }, { "retry-after": date }));
    const error = await rejectionOf(decide(adapter, decisionRequest, target, callContext()));
    expect(ProviderPassthroughError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ status: 429, retryAfter: date, payload: { error: "slow down" }, retryable: true });
  });

  it("a non-JSON error page maps to the gateway's 502", async () => {
    const { adapter, target } = await setup((_request, response) => {
      response.writeHead(503, { "content-type": "text/html" });
      response.end("<html>Service Unavailable</html>");
    });
    const error = await rejectionOf(decide(adapter, decisionRequest, target, callContext()));
    expect(ProviderPassthroughError.isInstance(error)).toBe(false);
    expect(error).toMatchObject({ code: "upstream_error", status: 502 });
  });

  it("a malformed 200 answer (missing key, unknown choice) is 502 upstream_error", async () => {
    const { adapter, target } = await setup((_request, response) =>
      sendJson(response, 200, { answers: { tone: { type: "choice", choice: "sarcastic" } } }),
    );
    const error = await rejectionOf(decide(adapter, decisionRequest, target, callContext()));
    expect(error).toMatchObject({ code: "upstream_error", status: 502 });
    expect(ProviderPassthroughError.isInstance(error)).toBe(false);
  });

  it("offers no chat", async () => {
    const { adapter, target } = await setup((_request, response) => sendJson(response, 200, {}));
    expect(await rejectionOf(chatCompletions(adapter, {}, target, callContext()))).toMatchObject({ code: "unsupported_feature" });
  });
});

import { afterEach, describe, expect, it } from "vitest";
import { callContext, connectionFor, rejectionOf, sendJson, startFakeUpstream, targetFor } from "../../../test/fake-upstream.js";
import type { FakeHandler, FakeUpstream } from "../../../test/fake-upstream.js";
import { createProviderAdapter } from "../provider-registry.js";
import { createHttpTransport } from "../../http-transport.js";
import type { HttpTransport } from "../../http-transport.js";
import type { DecisionRequest } from "../../decision/decision-contract.js";
import { decide } from "../../../test/adapter-calls.js";

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
  const connection = connectionFor("anthropic", upstream.url);
  return { adapter: createProviderAdapter(connection, { transport }), target: targetFor(connection, "anthropic/claude-test"), upstream };
}

function toolAnswer(input: unknown, overrides: Record<string, unknown> = {}) {
  return {
    id: "msg_tool",
    type: "message",
    role: "assistant",
    model: "claude-test",
    content: [{ type: "tool_use", id: "toolu_01", name: "record_probabilities", input }],
    stop_reason: "tool_use",
    stop_sequence: null,
    usage: { input_tokens: 50, output_tokens: 20, cache_creation_input_tokens: 5, cache_read_input_tokens: 30 },
    ...overrides,
  };
}

const request = (questions: DecisionRequest["questions"]): DecisionRequest =>
  ({ model: "anthropic-test/anthropic/claude-test", state: "The parcel arrived broken.", questions }) as DecisionRequest;

describe("anthropic adapter: decisions from a forced tool call", () => {
  it("forces a tool whose schema has one number per option; stated probabilities renormalised and marked", async () => {
    const { adapter, target, upstream } = await setup((_request, response) => sendJson(response, 200, toolAnswer({ "0": 0.1, "1": 0.2, "2": 0.5 })));
    const result = await decide(adapter, 
      request({ severity: { type: "score", instructions: "How severe?", criteria: ["minor", "moderate", { label: "major" }] } }),
      target,
      callContext(),
    );
    const sent = upstream.requests[0]!;
    expect(sent.path).toBe("/v1/messages");
    expect(sent.headers["x-api-key"]).toBe("sk-test-secret-credential-123456");
    expect(sent.headers["anthropic-version"]).toBe("2023-06-01");
    expect(sent.body).toMatchObject({
      model: "anthropic/claude-test",
      temperature: 0,
      tool_choice: { type: "tool", name: "record_probabilities" },
      tools: [
        {
          name: "record_probabilities",
          input_schema: { type: "object", required: ["0", "1", "2"], properties: { "0": { type: "number" }, "2": { type: "number" } } },
        },
      ],
    });
    expect(typeof sent.body.max_tokens).toBe("number");
    expect(sent.body.messages[0].content).toContain("The parcel arrived broken.");
    expect(sent.body.messages[0].content).toContain('"label": "major"');

    const answer = result.response.answers.severity as unknown as { score: number; probabilities: Record<string, number>; probability_source: string };
    expect(answer.probabilities["0"]).toBeCloseTo(0.125, 12);
    expect(answer.probabilities["1"]).toBeCloseTo(0.25, 12);
    expect(answer.probabilities["2"]).toBeCloseTo(0.625, 12);
    expect(answer.score).toBeCloseTo(0.25 + 1.25, 12);
    expect(answer.probability_source).toBe("stated");
    expect(result.usage).toEqual({ inputTokens: 50, outputTokens: 20, cacheReadTokens: 30, cacheWriteTokens: 5, reasoningTokens: 0 });
    expect(result.response.usage).toMatchObject({ input_tokens: 85, output_tokens: 20, total_tokens: 105 });
  });

  it("noul and choice use true/false and letter fields", async () => {
    const { adapter, target } = await setup((incoming, response) => {
      const required = incoming.body.tools[0].input_schema.required as string[];
      const input = required[0] === "true" ? { true: 0.8, false: 0.2 } : { A: 0.1, B: 0.9 };
      sendJson(response, 200, toolAnswer(input));
    });
    const result = await decide(adapter, 
      request({ broken: { type: "noul", instructions: "Broken?" }, next: { type: "choice", instructions: "Next?", criteria: { refund: null, replace: null } } }),
      target,
      callContext(),
    );
    expect(result.response.answers.broken).toEqual({ type: "noul", noul: 0.8, probability_source: "stated" });
    expect(result.response.answers.next).toMatchObject({ type: "choice", choice: "replace" });
    expect(result.usage.inputTokens).toBe(100);
  });

  it("answers a question and a choice named __proto__ under their own keys (JSON.parse makes them own keys)", async () => {
    const { adapter, target } = await setup((incoming, response) => {
      const required = incoming.body.tools[0].input_schema.required as string[];
      sendJson(response, 200, toolAnswer(required[0] === "true" ? { true: 0.8, false: 0.2 } : { A: 0.7, B: 0.2, C: 0.1 }));
    });
    const questions = JSON.parse(
      '{"__proto__":{"type":"choice","instructions":"Next?","criteria":{"__proto__":"a","constructor":"b","valueOf":"c"}},"toString":{"type":"noul","instructions":"Broken?"}}',
    );
    const result = await decide(adapter, request(questions), target, callContext());
    expect(Object.keys(result.response.answers)).toEqual(["__proto__", "toString"]);
    const answer = Object.getOwnPropertyDescriptor(result.response.answers, "__proto__")?.value as { choice: string; probabilities: Record<string, number> };
    expect(answer.choice).toBe("__proto__");
    expect(Object.keys(answer.probabilities)).toEqual(["__proto__", "constructor", "valueOf"]);
    expect(Object.getOwnPropertyDescriptor(answer.probabilities, "__proto__")?.value).toBeCloseTo(0.7, 12);
  });

  it("stop_reason refusal becomes a refusal answer", async () => {
    const { adapter, target } = await setup((_request, response) =>
      sendJson(response, 200, toolAnswer(undefined, { content: [], stop_reason: "refusal" })),
    );
    const result = await decide(adapter, request({ q: { type: "noul", instructions: "?" } }), target, callContext());
    expect(result.response.answers.q).toEqual({ type: "refusal" });
  });

  it("an answer without the tool call is 502", async () => {
    const { adapter, target } = await setup((_request, response) =>
      sendJson(response, 200, toolAnswer(undefined, { content: [{ type: "text", text: "I think 0.5" }], stop_reason: "end_turn" })),
    );
    expect(await rejectionOf(decide(adapter, request({ q: { type: "noul", instructions: "?" } }), target, callContext()))).toMatchObject({
      code: "upstream_error",
      status: 502,
    });
  });

  it("object rubrics are unsupported on a translated provider", async () => {
    const { adapter, target, upstream } = await setup((_request, response) => sendJson(response, 200, toolAnswer({})));
    const error = await rejectionOf(
      decide(adapter, request({ s: { type: "score", instructions: "?", criteria: { "0.5": "a", "1.5": "b" } } }), target, callContext()),
    );
    expect(error).toMatchObject({ code: "unsupported_feature", status: 400, param: "questions.s.criteria" });
    expect(upstream.requests).toHaveLength(0);
  });
});

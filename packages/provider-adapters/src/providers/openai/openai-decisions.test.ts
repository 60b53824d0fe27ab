import { afterEach, describe, expect, it } from "vitest";
import { fakeCallUsage, fakeLogprobCompletion, parsePromptLabels, userPrompt } from "../../../test/fake-openai-decisions.js";
import type { Beliefs, FakeLogprobOptions } from "../../../test/fake-openai-decisions.js";
import { callContext, connectionFor, rejectionOf, sendJson, startFakeUpstream, targetFor } from "../../../test/fake-upstream.js";
import type { FakeHandler, FakeUpstream, RecordedRequest } from "../../../test/fake-upstream.js";
import { createProviderAdapter } from "../provider-registry.js";
import { createHttpTransport } from "../../http-transport.js";
import type { HttpTransport } from "../../http-transport.js";
import type { AdapterConnection } from "../../provider-adapter.js";
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

async function setup(handler: FakeHandler, extra: Partial<AdapterConnection> = {}) {
  upstream = await startFakeUpstream(handler);
  transport = createHttpTransport();
  const connection = connectionFor("openai", `${upstream.url}/v1`, extra);
  return { adapter: createProviderAdapter(connection, { transport }), target: targetFor(connection, "openai/gpt-test"), upstream };
}

/** A fake whose beliefs depend on the question's instructions (questions run in parallel). */
function believing(byInstructions: Record<string, Beliefs>, options: FakeLogprobOptions = {}): FakeHandler {
  return (request, response) => {
    const user = userPrompt(request);
    const instructions = /<question>\n([\s\S]*?)\n<\/question>/.exec(user)![1]!;
    sendJson(response, 200, fakeLogprobCompletion(request, byInstructions[instructions]!, options));
  };
}

function decision(questions: DecisionRequest["questions"], extra: Record<string, unknown> = {}): DecisionRequest {
  return { model: "openai-test/openai/gpt-test", state: { ticket: "My card was charged twice" }, questions, ...extra } as DecisionRequest;
}

/** Normalises beliefs over the given keys (what the answer must recover). */
function expected(beliefs: Beliefs, keys: string[]): Record<string, number> {
  const total = keys.reduce((sum, key) => sum + (beliefs[key] ?? 0), 0);
  return Object.fromEntries(keys.map((key) => [key, (beliefs[key] ?? 0) / total]));
}

function expectClose(actual: Record<string, number> | undefined, wanted: Record<string, number>): void {
  expect(Object.keys(actual ?? {})).toEqual(Object.keys(wanted));
  for (const [key, value] of Object.entries(wanted)) expect(Math.abs((actual?.[key] ?? Number.NaN) - value)).toBeLessThan(1e-9);
}

describe("openai adapter: decisions from logprobs", () => {
  it("noul: one token at temperature 0 with top_logprobs 20; P(true) recovered with variants merged", async () => {
    const { adapter, target, upstream } = await setup(believing({ "Is it a billing issue?": { true: 0.73, false: 0.27 } }, { variants: true }));
    const result = await decide(adapter, decision({ billing: { type: "noul", instructions: "Is it a billing issue?" } }), target, callContext());

    const sent = upstream.requests[0]!;
    expect(sent.path).toBe("/v1/chat/completions");
    expect(sent.headers.authorization).toBe("Bearer sk-test-secret-credential-123456");
    expect(sent.body).toMatchObject({ model: "openai/gpt-test", temperature: 0, max_completion_tokens: 1, logprobs: true, top_logprobs: 20 });
    expect(sent.body.messages.map((message: { role: string }) => message.role)).toEqual(["system", "user"]);
    expect(userPrompt(sent)).toContain("My card was charged twice");
    expect(userPrompt(sent)).toContain("Reply with exactly one label: true, false.");

    const answer = result.response.answers.billing as unknown as { type: string; noul: number; probability_source: string };
    expect(answer.type).toBe("noul");
    expect(Math.abs(answer.noul - 0.73)).toBeLessThan(1e-9);
    expect(answer.probability_source).toBe("logprobs");
    expect(result.response.model).toBe("openai-test/openai/gpt-test");
    expect(result.usage).toEqual({ inputTokens: 60, outputTokens: 1, cacheReadTokens: 40, cacheWriteTokens: 0, reasoningTokens: 0 });
    expect(result.response.usage).toMatchObject({ input_tokens: 100, output_tokens: 1, total_tokens: 101 });
  });

  it("choice: letter labels, variants A / ' A' / a merged, renormalised over the allowed labels", async () => {
    const beliefs = { refund: 0.5, chargeback: 0.3, ignore: 0.2 };
    const { adapter, target, upstream } = await setup(believing({ "What to do?": beliefs }, { variants: true, labelMass: 0.8 }));
    const result = await decide(adapter, 
      decision({ action: { type: "choice", instructions: "What to do?", criteria: { refund: "Refund the duplicate", chargeback: null, ignore: "Do nothing" } } }),
      target,
      callContext(),
    );
    const prompt = userPrompt(upstream.requests[0]!);
    expect(prompt).toContain('A: "refund" — Refund the duplicate');
    expect(prompt).toContain('B: "chargeback"');
    expect(prompt).toContain("Reply with exactly one label: A, B, C.");
    const answer = result.response.answers.action as unknown as { choice: string; probabilities: Record<string, number>; confidence: number };
    expectClose(answer.probabilities, beliefs);
    expect(answer.choice).toBe("refund");
    expect(Math.abs(answer.confidence - (3 * 0.5 - 1) / 2)).toBeLessThan(1e-9);
  });

  it("answers a question and choices named like Object.prototype members under their own keys", async () => {
    // JSON.parse makes `__proto__` an own key, as in a request body.
    const beliefs: Beliefs = JSON.parse('{"__proto__":0.6,"constructor":0.3,"valueOf":0.1}');
    const { adapter, target } = await setup(believing({ "What to do?": beliefs }));
    const questions = JSON.parse('{"__proto__":{"type":"choice","instructions":"What to do?","criteria":{"__proto__":"a","constructor":null,"valueOf":"c"}}}');
    const result = await decide(adapter, decision(questions), target, callContext());
    expect(Object.keys(result.response.answers)).toEqual(["__proto__"]);
    const answer = Object.getOwnPropertyDescriptor(result.response.answers, "__proto__")?.value as { choice: string; probabilities: Record<string, number> };
    expect(answer.choice).toBe("__proto__");
    expectClose(answer.probabilities, beliefs);
  });

  it("score with up to 10 levels: level indices as labels; expected value and legend", async () => {
    const beliefs = { "0": 0.05, "1": 0.1, "2": 0.2, "3": 0.4, "4": 0.25 };
    const { adapter, target, upstream } = await setup(believing({ "How urgent?": beliefs }));
    const levels = ["none", "low", "medium", "high", "critical"];
    const result = await decide(adapter, decision({ urgency: { type: "score", instructions: "How urgent?", criteria: levels } }), target, callContext());
    expect(userPrompt(upstream.requests[0]!)).toContain("Reply with exactly one label: 0, 1, 2, 3, 4.");
    const answer = result.response.answers.urgency as unknown as { score: number; probabilities: Record<string, number>; legend: Record<string, unknown> };
    expectClose(answer.probabilities, beliefs);
    expect(Math.abs(answer.score - (0.1 + 0.4 + 1.2 + 1.0))).toBeLessThan(1e-9);
    expect(answer.legend).toEqual({ "0": "none", "1": "low", "2": "medium", "3": "high", "4": "critical" });
  });

  it("score with more than 10 levels: letter labels naming the levels", async () => {
    const levels = Array.from({ length: 12 }, (_, index) => `level text ${index}`);
    const beliefs: Beliefs = Object.fromEntries(levels.map((_, index) => [String(index), index + 1]));
    const { adapter, target, upstream } = await setup(believing({ "Rate it": beliefs }));
    const result = await decide(adapter, decision({ rating: { type: "score", instructions: "Rate it", criteria: levels } }), target, callContext());
    const prompt = userPrompt(upstream.requests[0]!);
    expect(prompt).toContain("L: level 11 — level text 11");
    expect(prompt).toContain("Reply with exactly one label: A, B, C, D, E, F, G, H, I, J, K, L.");
    const answer = result.response.answers.rating as unknown as { probabilities: Record<string, number> };
    expectClose(answer.probabilities, expected(beliefs, Object.keys(beliefs)));
  });

  it("255 choices: 13 groups of at most 20, the likely groups explored, P(group) x P(option | group) recovered", async () => {
    const names = Array.from({ length: 255 }, (_, index) => `option-${index}`);
    // Mass in three groups only (groups are consecutive: sizes 20 x 8 then 19 x 5).
    const beliefs: Beliefs = {};
    for (const name of names) beliefs[name] = 0;
    beliefs["option-3"] = 0.2;
    beliefs["option-17"] = 0.1;
    beliefs["option-100"] = 0.3;
    beliefs["option-101"] = 0.05;
    beliefs["option-250"] = 0.35;
    const { adapter, target, upstream } = await setup(believing({ "Pick one": beliefs }));
    const criteria = Object.fromEntries(names.map((name) => [name, `about ${name}`]));
    const result = await decide(adapter, decision({ pick: { type: "choice", instructions: "Pick one", criteria } }), target, callContext());

    expect(upstream.requests).toHaveLength(4);
    const groupRequest = upstream.requests.find((request) => userPrompt(request).includes("<groups>"))!;
    const groups = parsePromptLabels(userPrompt(groupRequest));
    expect(groups.map((group) => group.label)).toEqual("ABCDEFGHIJKLM".split(""));
    expect(groups.map((group) => group.keys.length)).toEqual([20, 20, 20, 20, 20, 20, 20, 20, 19, 19, 19, 19, 19]);
    expect(groups.flatMap((group) => group.keys)).toEqual(names);
    for (const request of upstream.requests) {
      expect(parsePromptLabels(userPrompt(request)).length).toBeLessThanOrEqual(20);
      expect(request.body.top_logprobs).toBe(20);
    }
    const answer = result.response.answers.pick as unknown as { choice: string; probabilities: Record<string, number> };
    expectClose(answer.probabilities, beliefs);
    expect(answer.choice).toBe("option-250");
    expect(result.usage.inputTokens).toBe(4 * 60);
  });

  it("score with 40 levels: groups of consecutive levels, expected value over all levels", async () => {
    const levels = Array.from({ length: 40 }, (_, index) => `${index} points`);
    const beliefs: Beliefs = Object.fromEntries(levels.map((_, index) => [String(index), 0]));
    beliefs["3"] = 0.1;
    beliefs["19"] = 0.2;
    beliefs["20"] = 0.3;
    beliefs["39"] = 0.4;
    const { adapter, target, upstream } = await setup(believing({ "Points?": beliefs }));
    const result = await decide(adapter, decision({ points: { type: "score", instructions: "Points?", criteria: levels } }), target, callContext());
    const groupPromptText = userPrompt(upstream.requests.find((request) => userPrompt(request).includes("<groups>"))!);
    expect(groupPromptText).toContain("split into groups of consecutive levels");
    expect(parsePromptLabels(groupPromptText).map((group) => group.keys)).toEqual([
      Array.from({ length: 20 }, (_, index) => String(index)),
      Array.from({ length: 20 }, (_, index) => String(index + 20)),
    ]);
    const answer = result.response.answers.points as unknown as { score: number; probabilities: Record<string, number> };
    expectClose(answer.probabilities, beliefs);
    expect(Math.abs(answer.score - (0.3 + 3.8 + 6 + 15.6))).toBeLessThan(1e-9);
  });

  it("groups below the coverage are not explored: their probability is spread evenly over their options", async () => {
    const names = Array.from({ length: 45 }, (_, index) => `c${index}`); // groups of 15
    const beliefs: Beliefs = Object.fromEntries(names.map((name) => [name, 0]));
    beliefs.c0 = 0.6;
    beliefs.c5 = 0.395; // group A holds 0.995 >= 0.99
    beliefs.c20 = 0.005; // group B holds 0.005: not explored
    const { adapter, target, upstream } = await setup(believing({ "Which?": beliefs }));
    const criteria = Object.fromEntries(names.map((name) => [name, null]));
    const result = await decide(adapter, decision({ which: { type: "choice", instructions: "Which?", criteria } }), target, callContext());
    expect(upstream.requests).toHaveLength(2);
    const answer = result.response.answers.which as unknown as { probabilities: Record<string, number> };
    const wanted: Record<string, number> = Object.fromEntries(names.map((name) => [name, 0]));
    wanted.c0 = 0.6;
    wanted.c5 = 0.395;
    for (let index = 15; index < 30; index++) wanted[`c${index}`] = 0.005 / 15;
    expectClose(answer.probabilities, wanted);
  });

  it("asks the questions of a request in parallel and sums usage", async () => {
    let inFlight = 0;
    let maxInFlight = 0;
    const handler = believing({ "Q one": { true: 0.9, false: 0.1 }, "Q two": { true: 0.2, false: 0.8 }, "Q three": { a: 1, b: 3 } });
    const { adapter, target } = await setup(async (request, response) => {
      inFlight += 1;
      maxInFlight = Math.max(maxInFlight, inFlight);
      while (inFlight < 3 && maxInFlight < 3) await new Promise((resolve) => setTimeout(resolve, 5));
      inFlight -= 1;
      await handler(request, response);
    });
    const result = await decide(adapter, 
      decision({
        one: { type: "noul", instructions: "Q one" },
        two: { type: "noul", instructions: "Q two" },
        three: { type: "choice", instructions: "Q three", criteria: { a: null, b: null } },
      }),
      target,
      callContext(),
    );
    expect(maxInFlight).toBe(3);
    expect(Object.keys(result.response.answers)).toEqual(["one", "two", "three"]);
    expect(result.usage).toEqual({ inputTokens: 180, outputTokens: 3, cacheReadTokens: 120, cacheWriteTokens: 0, reasoningTokens: 0 });
    expect(result.response.usage).toMatchObject({ input_tokens: 300, output_tokens: 3, total_tokens: 303 });
    expectClose((result.response.answers.three as unknown as { probabilities: Record<string, number> }).probabilities, { a: 0.25, b: 0.75 });
  });

  it("a refusal (message.refusal or content_filter) becomes a refusal answer under its key", async () => {
    const { adapter, target } = await setup((request, response) => {
      const user = userPrompt(request);
      if (user.includes("Refuse me")) {
        const body = fakeLogprobCompletion(request, { true: 1, false: 1 });
        body.choices[0]!.message = { role: "assistant", content: null as unknown as string, refusal: "I can't help with that.", annotations: [] };
        return sendJson(response, 200, body);
      }
      if (user.includes("Filter me")) {
        const body = fakeLogprobCompletion(request, { true: 1, false: 1 });
        body.choices[0]!.finish_reason = "content_filter";
        return sendJson(response, 200, body);
      }
      sendJson(response, 200, fakeLogprobCompletion(request, { true: 0.6, false: 0.4 }));
    });
    const result = await decide(adapter, 
      decision({
        refused: { type: "noul", instructions: "Refuse me" },
        filtered: { type: "choice", instructions: "Filter me", criteria: { x: null, y: null } },
        fine: { type: "noul", instructions: "Fine" },
      }),
      target,
      callContext(),
    );
    expect(result.response.answers.refused).toEqual({ type: "refusal" });
    expect(result.response.answers.filtered).toEqual({ type: "refusal" });
    expect(result.response.answers.fine).toMatchObject({ type: "noul" });
  });

  it("an answer without any allowed label among the top tokens is 502", async () => {
    const { adapter, target } = await setup((request, response) => {
      const body = fakeLogprobCompletion(request, { true: 1, false: 0 });
      body.choices[0]!.logprobs.content[0]!.top_logprobs = [{ token: "Maybe", logprob: -0.1, bytes: [] }];
      sendJson(response, 200, body);
    });
    const error = await rejectionOf(decide(adapter, decision({ q: { type: "noul", instructions: "?" } }), target, callContext()));
    expect(error).toMatchObject({ code: "upstream_error", status: 502 });
  });

  it("extensions it cannot represent fail with unsupported_feature naming the property, before any call", async () => {
    const { adapter, target, upstream } = await setup((_request, response) => sendJson(response, 500, {}));
    const requestExtension = await rejectionOf(
      decide(adapter, decision({ q: { type: "noul", instructions: "?" } }, { metadata: { team: "x" } }), target, callContext()),
    );
    expect(requestExtension).toMatchObject({ code: "unsupported_feature", status: 400, param: "metadata" });
    const questionExtension = await rejectionOf(
      decide(adapter, decision({ q: { type: "noul", instructions: "?", examples: [] } }), target, callContext()),
    );
    expect(questionExtension).toMatchObject({ code: "unsupported_feature", param: "questions.q.examples" });
    const rubric = await rejectionOf(
      decide(adapter, decision({ s: { type: "score", instructions: "?", criteria: { "1": "bad", "5": "good" } } }), target, callContext()),
    );
    expect(rubric).toMatchObject({ code: "unsupported_feature", param: "questions.s.criteria" });
    expect(upstream.requests).toHaveLength(0);
  });

  it("an upstream slower than the deadline gives 504 upstream_timeout", async () => {
    const { adapter, target } = await setup(() => {
      // never answers
    });
    const error = await rejectionOf(decide(adapter, decision({ q: { type: "noul", instructions: "?" } }), target, callContext({ timeoutMs: 100 })));
    expect(error).toMatchObject({ code: "upstream_timeout", status: 504 });
  });

  it("the first failing question cancels the other calls (their sockets close)", async () => {
    const { adapter, target, upstream } = await setup((request, response) => {
      if (userPrompt(request).includes("Fails")) {
        // answer only once the other call is in flight
        const answer = () => sendJson(response, 500, { error: { message: "boom" } });
        if (upstream.requests.length >= 2) answer();
        else setTimeout(answer, 50);
      }
      // "Hangs" never answers
    });
    const error = await rejectionOf(
      decide(adapter, decision({ a: { type: "noul", instructions: "Fails" }, b: { type: "noul", instructions: "Hangs" } }), target, callContext()),
    );
    expect(error).toMatchObject({ code: "upstream_error", status: 502 });
    const hanging = upstream.requests.find((request) => userPrompt(request).includes("Hangs"))!;
    await hanging.socketClosed;
  });

  it("falls back to stated probabilities when the model rejects logprobs", async () => {
    const { adapter, target, upstream } = await setup((request: RecordedRequest, response) => {
      if (request.body.logprobs) {
        return sendJson(response, 400, {
          error: { message: "This model does not support 'logprobs'.", type: "invalid_request_error", param: "logprobs", code: "unsupported_parameter" },
        });
      }
      sendJson(response, 200, {
        id: "c",
        object: "chat.completion",
        created: 1,
        model: "o-test",
        choices: [{ index: 0, message: { role: "assistant", content: '{"true":0.3,"false":0.3}', refusal: null }, finish_reason: "stop" }],
        usage: fakeCallUsage,
      });
    });
    const result = await decide(adapter, decision({ q: { type: "noul", instructions: "?" } }), target, callContext());
    expect(upstream.requests).toHaveLength(2);
    expect(result.response.answers.q).toEqual({ type: "noul", noul: 0.5, probability_source: "stated" });
  });
});

describe("openai adapter: decisions from stated probabilities (connection without logprobs)", () => {
  it("asks for a strict JSON schema with one number per option and renormalises", async () => {
    const { adapter, target, upstream } = await setup(
      (_request, response) =>
        sendJson(response, 200, {
          id: "c",
          object: "chat.completion",
          created: 1,
          model: "o-test",
          choices: [{ index: 0, message: { role: "assistant", content: '{"A":0.6,"B":0.6,"C":0.3}', refusal: null }, finish_reason: "stop" }],
          usage: fakeCallUsage,
        }),
      { logprobs: false },
    );
    expect(adapter.decisions?.logprobs).toBe(false);
    const result = await decide(adapter, 
      decision({ pick: { type: "choice", instructions: "Pick", criteria: { red: "warm", green: null, blue: null } } }),
      target,
      callContext(),
    );
    const sent = upstream.requests[0]!.body;
    expect(sent.logprobs).toBeUndefined();
    expect(sent.response_format.type).toBe("json_schema");
    expect(sent.response_format.json_schema.strict).toBe(true);
    expect(sent.response_format.json_schema.schema).toMatchObject({
      type: "object",
      required: ["A", "B", "C"],
      additionalProperties: false,
      properties: { A: { type: "number" }, B: { type: "number" }, C: { type: "number" } },
    });
    const answer = result.response.answers.pick as unknown as { probabilities: Record<string, number>; probability_source: string };
    expectClose(answer.probabilities, { red: 0.4, green: 0.4, blue: 0.2 });
    expect(answer.probability_source).toBe("stated");
  });

  it("a stated refusal becomes a refusal answer; a malformed map is 502", async () => {
    let content: string | null = null;
    let refusal: string | null = "I won't.";
    const { adapter, target } = await setup(
      (_request, response) =>
        sendJson(response, 200, {
          id: "c",
          object: "chat.completion",
          created: 1,
          model: "o",
          choices: [{ index: 0, message: { role: "assistant", content, refusal }, finish_reason: "stop" }],
          usage: fakeCallUsage,
        }),
      { logprobs: false },
    );
    const refused = await decide(adapter, decision({ q: { type: "noul", instructions: "?" } }), target, callContext());
    expect(refused.response.answers.q).toEqual({ type: "refusal" });
    refusal = null;
    content = '{"true":"high","false":0}';
    expect(await rejectionOf(decide(adapter, decision({ q: { type: "noul", instructions: "?" } }), target, callContext()))).toMatchObject({
      code: "upstream_error",
      status: 502,
    });
  });
});

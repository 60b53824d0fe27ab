import { GatewayError } from "@gateway/errors";
import { describe, expect, it } from "vitest";
import { checkDecisionResponse } from "./check-decision-response.js";
import type { DecisionRequest } from "./decision-request-schema.js";
import { parseDecisionRequest } from "./parse-decision-request.js";

const request = parseDecisionRequest({
  model: "acme/openai/gpt-4o-mini",
  state: { ticket: "Where is my parcel?" },
  questions: {
    urgent: { type: "noul", instructions: "Is it urgent?" },
    topic: { type: "choice", instructions: "Topic?", criteria: { billing: null, shipping: "parcel questions" } },
    tone: { type: "score", instructions: "Tone?", criteria: ["hostile", "neutral", "friendly"] },
    rating: { type: "score", instructions: "Rate", criteria: { "1": "bad", "5": "good", "2.5": "ok" } },
  },
});

function validResponse(): Record<string, any> {
  return {
    model: "acme/openai/gpt-4o-mini",
    answers: {
      urgent: { type: "noul", noul: 0.2 },
      topic: { type: "choice", choice: "shipping", probabilities: { billing: 0.1, shipping: 0.9 }, confidence: 0.8 },
      tone: {
        type: "score",
        score: 1.2,
        probabilities: { "0": 0.1, "1": 0.6, "2": 0.3 },
        legend: { "0": "hostile", "1": "neutral", "2": "friendly" },
        confidence: 0.5,
      },
      rating: { type: "score", score: 5, probabilities: { "1": 0, "2.5": 0, "5": 1 } },
    },
    usage: { input_tokens: 10, output_tokens: 4, total_tokens: 14, input_tokens_details: { cached_tokens: 0 } },
    provider_extra: true,
  };
}

function rejection(response: unknown): GatewayError {
  try {
    checkDecisionResponse(request, response);
  } catch (error) {
    if (GatewayError.isInstance(error)) return error;
    throw error;
  }
  throw new Error("expected the response to be rejected");
}

function problems(error: GatewayError): { path: string; problem: string }[] {
  return (error.details?.issues as { path: string; problem: string }[]).map(({ path, problem }) => ({ path, problem }));
}

describe("checkDecisionResponse", () => {
  it("returns a valid response typed, additional properties kept", () => {
    const checked = checkDecisionResponse(request, validResponse());
    expect(checked.answers.topic).toMatchObject({ type: "choice", choice: "shipping" });
    expect(checked.provider_extra).toBe(true);
    expect(checked.usage?.total_tokens).toBe(14);
  });

  it("accepts a refusal under any question and answers without optional fields", () => {
    const response = validResponse();
    response.answers.topic = { type: "refusal", reason: "policy" };
    response.answers.tone = { type: "score", score: 0 };
    response.answers.rating = { type: "score", score: 1 };
    expect(checkDecisionResponse(request, response).answers.topic?.type).toBe("refusal");
  });

  it("throws upstream_error (502), not retryable, naming a missing answer", () => {
    const response = validResponse();
    delete response.answers.tone;
    const error = rejection(response);
    expect(error.code).toBe("upstream_error");
    expect(error.status).toBe(502);
    expect(error.retryable).toBe(false);
    expect(problems(error)).toEqual([{ path: "answers.tone", problem: "missing_answer" }]);
    expect(error.message).toContain("answers.tone");
  });

  it("rejects an answer under a key that is no question", () => {
    const response = validResponse();
    response.answers.extra = { type: "noul", noul: 1 };
    expect(problems(rejection(response))).toEqual([{ path: "answers.extra", problem: "unexpected_answer" }]);
  });

  it("rejects an answer whose type does not fit its question", () => {
    const response = validResponse();
    response.answers.urgent = { type: "choice", choice: "billing" };
    expect(problems(rejection(response))).toEqual([{ path: "answers.urgent.type", problem: "answer_type_mismatch" }]);
  });

  it("rejects a choice that names no criterion", () => {
    const response = validResponse();
    response.answers.topic.choice = "returns";
    expect(problems(rejection(response))).toEqual([{ path: "answers.topic.choice", problem: "unknown_choice" }]);
  });

  it("rejects choice probabilities keyed by something other than a choice", () => {
    const response = validResponse();
    response.answers.topic.probabilities = { billing: 0.1, returns: 0.9 };
    expect(problems(rejection(response))).toEqual([{ path: "answers.topic.probabilities.returns", problem: "unknown_probability_key" }]);
  });

  it("rejects score probabilities and legend keys that are no level", () => {
    const response = validResponse();
    response.answers.tone.probabilities = { "0": 0.5, "3": 0.5 };
    response.answers.tone.legend = { "01": "hostile" };
    expect(problems(rejection(response))).toEqual([
      { path: "answers.tone.probabilities.3", problem: "unknown_probability_key" },
      { path: "answers.tone.legend.01", problem: "unknown_legend_key" },
    ]);
  });

  it("rejects rubric probabilities keyed by something other than the rubric's keys", () => {
    const response = validResponse();
    response.answers.rating.probabilities = { "5.0": 1 };
    expect(problems(rejection(response))).toEqual([{ path: "answers.rating.probabilities.5.0", problem: "unknown_probability_key" }]);
  });

  it("rejects a level score outside [0, n-1]", () => {
    for (const score of [-0.1, 2.01]) {
      const response = validResponse();
      response.answers.tone.score = score;
      expect(problems(rejection(response))).toEqual([{ path: "answers.tone.score", problem: "score_out_of_range" }]);
    }
  });

  it("rejects a rubric score outside [min key, max key] and accepts the bounds", () => {
    for (const score of [0.99, 5.5]) {
      const response = validResponse();
      response.answers.rating.score = score;
      const error = rejection(response);
      expect(problems(error)).toEqual([{ path: "answers.rating.score", problem: "score_out_of_range" }]);
      expect(error.message).toContain("[1, 5]");
    }
    const response = validResponse();
    response.answers.rating.score = 3.7;
    expect(checkDecisionResponse(request, response).answers.rating).toMatchObject({ score: 3.7 });
  });

  it.each([
    ["noul above 1", (response: Record<string, any>) => (response.answers.urgent.noul = 1.5), "answers.urgent.noul"],
    ["noul below 0", (response: Record<string, any>) => (response.answers.urgent.noul = -0.1), "answers.urgent.noul"],
    ["a missing noul", (response: Record<string, any>) => delete response.answers.urgent.noul, "answers.urgent.noul"],
    ["a probability above 1", (response: Record<string, any>) => (response.answers.topic.probabilities.billing = 1.2), "answers.topic.probabilities.billing"],
    ["a negative confidence", (response: Record<string, any>) => (response.answers.tone.confidence = -1), "answers.tone.confidence"],
    ["a string score", (response: Record<string, any>) => (response.answers.tone.score = "1"), "answers.tone.score"],
    ["a missing choice", (response: Record<string, any>) => delete response.answers.topic.choice, "answers.topic.choice"],
    ["an unknown answer type", (response: Record<string, any>) => (response.answers.topic.type = "rank"), "answers.topic.type"],
    ["a negative token count", (response: Record<string, any>) => (response.usage.input_tokens = -1), "usage.input_tokens"],
    ["a fractional token count", (response: Record<string, any>) => (response.usage.output_tokens = 1.5), "usage.output_tokens"],
    ["missing answers", (response: Record<string, any>) => delete response.answers, "answers"],
  ])("rejects %s as an invalid shape", (_label, mutate, path) => {
    const response = validResponse();
    mutate(response);
    const error = rejection(response);
    expect(error.code).toBe("upstream_error");
    expect(problems(error)[0]).toEqual({ path, problem: "invalid_shape" });
  });

  it("rejects a response that is not an object", () => {
    expect(problems(rejection("yes"))[0]?.problem).toBe("invalid_shape");
  });

  it("lists several problems at once and does not echo answer values", () => {
    const response = validResponse();
    response.answers.topic.choice = "secret-choice-value";
    delete response.answers.urgent;
    const error = rejection(response);
    expect(problems(error)).toEqual([
      { path: "answers.urgent", problem: "missing_answer" },
      { path: "answers.topic.choice", problem: "unknown_choice" },
    ]);
    expect(JSON.stringify({ message: error.message, details: error.details })).not.toContain("secret-choice-value");
  });
});

describe("checkDecisionResponse: a question named __proto__", () => {
  // As parseDecisionRequest returns it (the body itself; JSON.parse makes `__proto__` an own key).
  const protoRequest = JSON.parse('{"model":"m","state":"s","questions":{"__proto__":{"type":"choice","instructions":"i","criteria":{"__proto__":"a","constructor":"b"}}}}') as DecisionRequest;

  it("accepts and returns the answer under that key", () => {
    const response = JSON.parse('{"answers":{"__proto__":{"type":"choice","choice":"__proto__","probabilities":{"__proto__":0.75,"constructor":0.25}}}}');
    const checked = checkDecisionResponse(protoRequest, response);
    expect(JSON.stringify(checked)).toBe(JSON.stringify(response));
  });

  it("reports the answer missing when the provider leaves it out", () => {
    try {
      checkDecisionResponse(protoRequest, { answers: {} });
      throw new Error("expected a refusal");
    } catch (error) {
      expect(GatewayError.isInstance(error) && error.details?.issues).toEqual([{ path: "answers.__proto__", problem: "missing_answer", message: "answers.__proto__ is missing." }]);
    }
  });

  it("checks the answer under __proto__ (an unknown choice is an error)", () => {
    expect(() => checkDecisionResponse(protoRequest, JSON.parse('{"answers":{"__proto__":{"type":"choice","choice":"toString"}}}'))).toThrow(/names no choice/);
  });
});

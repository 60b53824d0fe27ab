import { describe, expect, it } from "vitest";
import { buildChoiceAnswer } from "./build-choice-answer.js";
import { buildNoulAnswer } from "./build-noul-answer.js";
import { buildScoreAnswer } from "./build-score-answer.js";
import { checkDecisionResponse } from "./check-decision-response.js";
import { parseDecisionRequest } from "./parse-decision-request.js";

describe("buildChoiceAnswer", () => {
  const question = { criteria: { billing: null, shipping: "parcels", returns: { note: "refunds" } } };

  it("normalises weights, picks the most probable choice and computes the confidence", () => {
    const answer = buildChoiceAnswer({ question, weights: { billing: 1, shipping: 6, returns: 1 } });
    expect(answer.type).toBe("choice");
    expect(answer.choice).toBe("shipping");
    expect(answer.probabilities).toEqual({ billing: 0.125, shipping: 0.75, returns: 0.125 });
    // (3 * 0.75 - 1) / 2 = 0.625
    expect(answer.confidence).toBeCloseTo(0.625, 12);
  });

  it("gives missing choices probability 0 and breaks ties by criteria order", () => {
    const answer = buildChoiceAnswer({ question, weights: { returns: 2, shipping: 2 } });
    expect(answer.probabilities).toEqual({ billing: 0, shipping: 0.5, returns: 0.5 });
    expect(answer.choice).toBe("shipping");
  });

  it("throws for a weight that names no choice", () => {
    expect(() => buildChoiceAnswer({ question, weights: { refunds: 1 } })).toThrow(RangeError);
  });
});

describe("buildScoreAnswer", () => {
  const question = { criteria: ["hostile", "neutral", "friendly"] };

  it("builds probabilities, legend, expected score and confidence from weights by index", () => {
    const answer = buildScoreAnswer({ question, weights: [2, 5, 3] });
    expect(answer.probabilities).toEqual({ "0": 0.2, "1": 0.5, "2": 0.3 });
    expect(answer.legend).toEqual({ "0": "hostile", "1": "neutral", "2": "friendly" });
    expect(answer.score).toBeCloseTo(1.1, 12);
    expect(answer.confidence).toBeCloseTo(0.25, 12);
  });

  it("accepts weights keyed by level, missing levels weighing 0", () => {
    const answer = buildScoreAnswer({ question, weights: { "2": 1 } });
    expect(answer.score).toBe(2);
    expect(answer.confidence).toBe(1);
    expect(answer.probabilities).toEqual({ "0": 0, "1": 0, "2": 1 });
  });

  it("throws for weights that do not fit the levels and for an object rubric", () => {
    expect(() => buildScoreAnswer({ question, weights: [1, 1] })).toThrow(RangeError);
    expect(() => buildScoreAnswer({ question, weights: { "3": 1 } })).toThrow(RangeError);
    expect(() => buildScoreAnswer({ question, weights: { "01": 1 } })).toThrow(RangeError);
    expect(() => buildScoreAnswer({ question: { criteria: { "1": "a", "2": "b" } }, weights: [1, 1] })).toThrow(RangeError);
  });
});

describe("buildNoulAnswer", () => {
  it("is P(true) after normalisation", () => {
    expect(buildNoulAnswer({ weights: { true: 3, false: 1 } })).toEqual({ type: "noul", noul: 0.75 });
    expect(buildNoulAnswer({ weights: { false: 0.4 } })).toEqual({ type: "noul", noul: 0 });
    expect(buildNoulAnswer({ weights: {} })).toEqual({ type: "noul", noul: 0.5 });
  });
});

describe("built answers", () => {
  it("pass checkDecisionResponse for the questions they answer", () => {
    const request = parseDecisionRequest({
      model: "m",
      state: "s",
      questions: {
        urgent: { type: "noul", instructions: "?" },
        topic: { type: "choice", instructions: "?", criteria: { a: null, b: null } },
        tone: { type: "score", instructions: "?", criteria: ["low", "mid", "high"] },
      },
    });
    const topic = request.questions.topic;
    const tone = request.questions.tone;
    if (topic?.type !== "choice" || tone?.type !== "score") throw new Error("unexpected question kinds");
    const response = {
      answers: {
        urgent: buildNoulAnswer({ weights: { true: 0.9, false: 0.3 } }),
        topic: buildChoiceAnswer({ question: topic, weights: { a: 0.2, b: 0.7 } }),
        tone: buildScoreAnswer({ question: tone, weights: [0.01, 0.2, 0.9] }),
      },
    };
    expect(checkDecisionResponse(request, response).answers).toEqual(response.answers);
  });
});

describe("answers for choices named like Object.prototype members", () => {
  it("weighs and names __proto__, constructor and valueOf like any other choice", () => {
    const question = JSON.parse('{"criteria":{"__proto__":"a","constructor":"b","valueOf":"c","other":null}}');
    const answer = buildChoiceAnswer({ question, weights: JSON.parse('{"__proto__":6,"constructor":1,"valueOf":1}') });
    expect(answer.choice).toBe("__proto__");
    expect(JSON.stringify(answer.probabilities)).toBe('{"__proto__":0.75,"constructor":0.125,"valueOf":0.125,"other":0}');
  });
});

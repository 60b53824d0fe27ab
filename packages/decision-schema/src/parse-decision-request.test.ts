import { GatewayError } from "@gateway/errors";
import { describe, expect, it } from "vitest";
import { decisionLimits } from "./decision-limits.js";
import { parseDecisionRequest, safeParseDecisionRequest } from "./parse-decision-request.js";

function validRequest(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    model: "acme/openai/gpt-4o-mini",
    state: "The customer asks for a refund after 40 days.",
    questions: {
      eligible: { type: "noul", instructions: "Is the customer eligible for a refund?" },
      topic: { type: "choice", instructions: "Pick the topic.", criteria: { billing: "money", shipping: null } },
      tone: { type: "score", instructions: "Rate the tone.", criteria: ["hostile", "neutral", "friendly"] },
    },
    ...overrides,
  };
}

function withQuestion(question: Record<string, unknown>): Record<string, unknown> {
  return validRequest({ questions: { q1: { instructions: "Decide.", ...question } } });
}

/** Parses and returns the thrown GatewayError (fails the test when nothing is thrown). */
function rejection(body: unknown): GatewayError {
  const result = safeParseDecisionRequest(body);
  if (result.success) throw new Error("expected the request to be rejected");
  return result.error;
}

function records(count: number, value: (index: number) => unknown = (index) => `option ${index}`): Record<string, unknown> {
  return Object.fromEntries(Array.from({ length: count }, (_, index) => [`k${index}`, value(index)]));
}

describe("parseDecisionRequest", () => {
  it("accepts a valid request and keeps additional properties of the request and its questions", () => {
    const body = validRequest({ metadata: { team: "support" }, stream: false });
    (body.questions as Record<string, Record<string, unknown>>).topic!.x_native_hint = 3;
    const request = parseDecisionRequest(body);
    expect(request.model).toBe("acme/openai/gpt-4o-mini");
    expect(request.metadata).toEqual({ team: "support" });
    expect(request.questions.topic).toMatchObject({ type: "choice", x_native_hint: 3 });
    expect(Object.keys(request.questions)).toEqual(["eligible", "topic", "tone"]);
  });

  it("throws an invalid_request GatewayError (400) naming the failing field", () => {
    let thrown: unknown;
    try {
      parseDecisionRequest(withQuestion({ type: "choice", criteria: { only: "one" } }));
    } catch (error) {
      thrown = error;
    }
    expect(GatewayError.isInstance(thrown)).toBe(true);
    const error = thrown as GatewayError;
    expect(error.code).toBe("invalid_request");
    expect(error.status).toBe(400);
    expect(error.param).toBe("questions.q1.criteria");
    expect(error.details?.issues).toEqual([expect.objectContaining({ path: "questions.q1.criteria", code: "too_small" })]);
  });

  it("rejects a body that is not an object", () => {
    expect(rejection(null).code).toBe("invalid_request");
    expect(rejection([validRequest()]).code).toBe("invalid_request");
  });

  describe("model", () => {
    it("accepts lengths 1 and 1048576", () => {
      expect(safeParseDecisionRequest(validRequest({ model: "m" })).success).toBe(true);
      expect(safeParseDecisionRequest(validRequest({ model: "m".repeat(decisionLimits.maxModelLength) })).success).toBe(true);
    });
    it("rejects length 0, length 1048577 and a missing or non-string model", () => {
      expect(rejection(validRequest({ model: "" })).param).toBe("model");
      expect(rejection(validRequest({ model: "m".repeat(decisionLimits.maxModelLength + 1) })).param).toBe("model");
      expect(rejection(validRequest({ model: undefined })).param).toBe("model");
      expect(rejection(validRequest({ model: 42 })).param).toBe("model");
    });
  });

  describe("state", () => {
    it.each([["a string", "text"], ["an object", { ticket: { id: 1 } }], ["an array", [{ role: "user" }, "x"]], ["an empty string", ""]])(
      "accepts %s",
      (_label, state) => {
        expect(parseDecisionRequest(validRequest({ state })).state).toEqual(state);
      },
    );
    it.each([["a number", 3], ["a boolean", true], ["null", null], ["a missing state", undefined]])("rejects %s", (_label, state) => {
      const error = rejection(validRequest({ state }));
      expect(error.param).toBe("state");
    });
  });

  describe("questions", () => {
    it("accepts 1 and 200 questions", () => {
      expect(safeParseDecisionRequest(validRequest({ questions: { only: { type: "noul", instructions: "?" } } })).success).toBe(true);
      const many = records(decisionLimits.maxQuestions, () => ({ type: "noul", instructions: "?" }));
      expect(Object.keys(parseDecisionRequest(validRequest({ questions: many })).questions)).toHaveLength(200);
    });
    it("rejects 0 and 201 questions", () => {
      const none = rejection(validRequest({ questions: {} }));
      expect(none.param).toBe("questions");
      expect(none.message).toContain("1 to 200");
      const tooMany = rejection(validRequest({ questions: records(201, () => ({ type: "noul", instructions: "?" })) }));
      expect(tooMany.param).toBe("questions");
      expect(tooMany.message).toContain("1 to 200");
    });
    it("rejects questions that are not an object", () => {
      expect(rejection(validRequest({ questions: [{ type: "noul", instructions: "?" }] })).param).toBe("questions");
      expect(rejection(validRequest({ questions: undefined })).param).toBe("questions");
    });
    it("rejects an unknown or missing question type at questions.<name>.type", () => {
      expect(rejection(withQuestion({ type: "rank" })).param).toBe("questions.q1.type");
      expect(rejection(withQuestion({})).param).toBe("questions.q1.type");
    });
  });

  describe("stream", () => {
    it("accepts false and absence", () => {
      expect(safeParseDecisionRequest(validRequest({ stream: false })).success).toBe(true);
      expect(safeParseDecisionRequest(validRequest()).success).toBe(true);
    });
    it("rejects true (and any other value)", () => {
      const error = rejection(validRequest({ stream: true }));
      expect(error.param).toBe("stream");
      expect(error.message).toContain("may only be `false`");
      expect(rejection(validRequest({ stream: "false" })).param).toBe("stream");
    });
  });

  describe("output-token caps", () => {
    it("accepts a request without any of them", () => {
      expect(safeParseDecisionRequest(validRequest({ max_tokenz: 5 })).success).toBe(true);
    });
    it.each(["max_tokens", "max_output_tokens", "max_completion_tokens"])("rejects %s when present, even null", (field) => {
      for (const value of [100, null, 0, "10"]) {
        const error = rejection(validRequest({ [field]: value }));
        expect(error.param).toBe(field);
        expect(error.message).toContain(field);
      }
    });
  });

  describe("instructions", () => {
    it.each([["a string", "Decide."], ["an object", { text: "Decide." }], ["an array", ["Decide", "carefully"]]])("accepts %s", (_label, instructions) => {
      expect(safeParseDecisionRequest(withQuestion({ type: "noul", instructions })).success).toBe(true);
    });
    it.each([["missing", undefined], ["null", null], ["a number", 1], ["a boolean", false]])("rejects %s instructions", (_label, instructions) => {
      expect(rejection(withQuestion({ type: "choice", instructions, criteria: { a: null, b: null } })).param).toBe("questions.q1.instructions");
    });
  });

  describe("noul criteria", () => {
    it.each([
      ["absent", undefined],
      ["null", null],
      ["an empty object", {}],
      ["true and false", { true: "refund", false: { reason: "policy" } }],
      ["only true, valued null", { true: null }],
      ["only false, valued an array", { false: ["a", "b"] }],
    ])("accepts %s", (_label, criteria) => {
      expect(safeParseDecisionRequest(withQuestion({ type: "noul", criteria })).success).toBe(true);
    });
    it("rejects a key other than true/false", () => {
      const error = rejection(withQuestion({ type: "noul", criteria: { true: "yes", maybe: "?" } }));
      expect(error.param).toBe("questions.q1.criteria");
      expect(error.message).toContain("`true` and `false`");
    });
    it("rejects values that are not string, object, array or null", () => {
      expect(rejection(withQuestion({ type: "noul", criteria: { true: 1 } })).param).toBe("questions.q1.criteria.true");
      expect(rejection(withQuestion({ type: "noul", criteria: { false: true } })).param).toBe("questions.q1.criteria.false");
    });
    it("rejects criteria that are neither object nor null", () => {
      expect(rejection(withQuestion({ type: "noul", criteria: ["true", "false"] })).param).toBe("questions.q1.criteria");
      expect(rejection(withQuestion({ type: "noul", criteria: "yes" })).param).toBe("questions.q1.criteria");
    });
  });

  describe("choice criteria", () => {
    it("accepts 2 and 255 entries with string, object, array and null values", () => {
      const mixed = { a: "text", b: { detail: 1 }, c: ["x"], d: null };
      expect(safeParseDecisionRequest(withQuestion({ type: "choice", criteria: mixed })).success).toBe(true);
      expect(safeParseDecisionRequest(withQuestion({ type: "choice", criteria: records(2) })).success).toBe(true);
      expect(safeParseDecisionRequest(withQuestion({ type: "choice", criteria: records(255) })).success).toBe(true);
    });
    it("rejects 1 and 256 entries", () => {
      expect(rejection(withQuestion({ type: "choice", criteria: records(1) })).param).toBe("questions.q1.criteria");
      const tooMany = rejection(withQuestion({ type: "choice", criteria: records(256) }));
      expect(tooMany.param).toBe("questions.q1.criteria");
      expect(tooMany.message).toContain("2 to 255");
    });
    it("rejects missing criteria, an array and a value of the wrong type", () => {
      expect(rejection(withQuestion({ type: "choice" })).param).toBe("questions.q1.criteria");
      expect(rejection(withQuestion({ type: "choice", criteria: ["a", "b"] })).param).toBe("questions.q1.criteria");
      expect(rejection(withQuestion({ type: "choice", criteria: { a: "x", b: 2 } })).param).toBe("questions.q1.criteria.b");
    });
  });

  describe("score criteria: levels", () => {
    it("accepts 2 and 255 levels of string, object, array or null", () => {
      expect(safeParseDecisionRequest(withQuestion({ type: "score", criteria: ["low", { label: "high" }] })).success).toBe(true);
      expect(safeParseDecisionRequest(withQuestion({ type: "score", criteria: [null, ["x"]] })).success).toBe(true);
      const levels = Array.from({ length: 255 }, (_, index) => `level ${index}`);
      expect(safeParseDecisionRequest(withQuestion({ type: "score", criteria: levels })).success).toBe(true);
    });
    it("rejects 1 and 256 levels", () => {
      const one = rejection(withQuestion({ type: "score", criteria: ["only"] }));
      expect(one.param).toBe("questions.q1.criteria");
      expect(one.message).toContain("2 to 255");
      const levels = Array.from({ length: 256 }, (_, index) => `level ${index}`);
      expect(rejection(withQuestion({ type: "score", criteria: levels })).param).toBe("questions.q1.criteria");
    });
    it("rejects a level of the wrong type at its index", () => {
      expect(rejection(withQuestion({ type: "score", criteria: ["low", 5] })).param).toBe("questions.q1.criteria[1]");
    });
    it("rejects missing criteria and criteria of another type", () => {
      expect(rejection(withQuestion({ type: "score" })).param).toBe("questions.q1.criteria");
      const error = rejection(withQuestion({ type: "score", criteria: "1 to 5" }));
      expect(error.param).toBe("questions.q1.criteria");
      expect(error.message).toContain("array");
    });
  });

  describe("score criteria: object rubric", () => {
    it("accepts 2 and 255 entries whose keys are finite, distinct numbers", () => {
      const rubric = { "1": "poor", "2.5": { label: "fair" }, "-3": null, "1e2": ["great"], ".5": "half", "0": "none" };
      expect(parseDecisionRequest(withQuestion({ type: "score", criteria: rubric })).questions.q1).toMatchObject({ criteria: rubric });
      const large = Object.fromEntries(Array.from({ length: 255 }, (_, index) => [String(index), `score ${index}`]));
      expect(safeParseDecisionRequest(withQuestion({ type: "score", criteria: large })).success).toBe(true);
    });
    it("rejects 1 and 256 entries", () => {
      expect(rejection(withQuestion({ type: "score", criteria: { "1": "only" } })).param).toBe("questions.q1.criteria");
      const large = Object.fromEntries(Array.from({ length: 256 }, (_, index) => [String(index), null]));
      expect(rejection(withQuestion({ type: "score", criteria: large })).param).toBe("questions.q1.criteria");
    });
    it("rejects two keys that denote the same number", () => {
      for (const [first, second] of [["1", "1.0"], ["2", "2e0"], ["0", "-0"], ["0.5", ".5"]]) {
        const error = rejection(withQuestion({ type: "score", criteria: { [first!]: "a", [second!]: "b" } }));
        expect(error.param).toBe(`questions.q1.criteria.${second}`);
        expect(error.message).toContain("same score");
      }
    });
    it.each(["NaN", "Infinity", "-Infinity", "abc", "", " ", "1e400", "0x10", "1 ", "1,5"])("rejects the key %j", (key) => {
      const error = rejection(withQuestion({ type: "score", criteria: { "1": "a", [key]: "b" } }));
      expect(error.param).toBe(`questions.q1.criteria.${key}`);
      expect(error.message).toContain("not a finite number");
    });
    it("rejects values that are not string, object, array or null", () => {
      expect(rejection(withQuestion({ type: "score", criteria: { "1": "a", "2": 2 } })).param).toBe("questions.q1.criteria.2");
    });
  });

  it("lists every issue in details", () => {
    const error = rejection(validRequest({ model: "", stream: true, max_tokens: 1 }));
    const paths = (error.details?.issues as { path: unknown }[]).map((issue) => issue.path);
    expect(paths).toEqual(expect.arrayContaining(["model", "stream", "max_tokens"]));
  });
});

describe("parseDecisionRequest error size", () => {
  it("lists at most 50 issues however many entries are wrong", () => {
    const criteria = Object.fromEntries(Array.from({ length: 255 }, (_, index) => [`c${index}`, index]));
    const result = safeParseDecisionRequest({ model: "m", state: "s", questions: { q: { type: "choice", instructions: "?", criteria } } });
    if (result.success) throw new Error("expected a rejection");
    const issues = result.error.details?.issues as unknown[];
    expect(issues).toHaveLength(50);
    expect(issues[0]).toMatchObject({ path: "questions.q.criteria.c0" });
  });
});

describe("parseDecisionRequest: keys named like Object.prototype members", () => {
  // JSON.parse makes `__proto__` an own key; these bodies are built the same way.
  const body = (text: string) => JSON.parse(text) as Record<string, unknown>;

  it("keeps a question named __proto__ (and constructor, valueOf) under its own key", () => {
    const request = parseDecisionRequest(
      body(
        '{"model":"m","state":"s","questions":{"__proto__":{"type":"noul","instructions":"i"},"constructor":{"type":"noul","instructions":"i"},"valueOf":{"type":"choice","instructions":"i","criteria":{"__proto__":"a","toString":"b"}}}}',
      ),
    );
    expect(Object.keys(request.questions)).toEqual(["__proto__", "constructor", "valueOf"]);
    expect(Object.getOwnPropertyDescriptor(request.questions, "__proto__")?.value).toEqual({ type: "noul", instructions: "i" });
    expect(Object.keys((Object.getOwnPropertyDescriptor(request.questions, "valueOf")?.value as { criteria: object }).criteria)).toEqual(["__proto__", "toString"]);
  });

  it("checks a question named __proto__ like any other", () => {
    const error = rejection(body('{"model":"m","state":"s","questions":{"__proto__":{"type":"choice","instructions":"i","criteria":{"only":"one"}}}}'));
    expect(error.code).toBe("invalid_request");
    expect(error.param).toBe("questions.__proto__.criteria");
  });

  it("counts a question named __proto__ as a question (the request is not empty)", () => {
    expect(rejection(body('{"model":"m","state":"s","questions":{"__proto__":{}}}')).param).toBe("questions.__proto__.type");
    expect(safeParseDecisionRequest(body('{"model":"m","state":"s","questions":{"__proto__":{"type":"noul","instructions":"i"}}}')).success).toBe(true);
  });

  it("keeps __proto__ keys of the body, the state and a question (native providers receive the request as sent)", () => {
    const request = parseDecisionRequest(
      body('{"model":"m","state":{"__proto__":"kept"},"__proto__":{"x":1},"questions":{"q":{"type":"noul","instructions":"i","__proto__":"q"}}}'),
    );
    expect(JSON.parse(JSON.stringify(request))).toEqual(
      body('{"model":"m","state":{"__proto__":"kept"},"__proto__":{"x":1},"questions":{"q":{"type":"noul","instructions":"i","__proto__":"q"}}}'),
    );
    expect(JSON.stringify(request)).toContain('"__proto__":{"x":1}');
    expect(JSON.stringify(request.state)).toBe('{"__proto__":"kept"}');
  });

  it("refuses __proto__ in noul criteria by name (only true and false are allowed)", () => {
    const error = rejection(body('{"model":"m","state":"s","questions":{"q":{"type":"noul","instructions":"i","criteria":{"__proto__":"x"}}}}'));
    expect(error.code).toBe("invalid_request");
    expect(error.param).toBe("questions.q.criteria");
  });
});

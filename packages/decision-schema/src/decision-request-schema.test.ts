import { describe, expect, it } from "vitest";
import { decisionRequestSchema } from "./decision-request-schema.js";

const noul = { type: "noul", instructions: "?" };

describe("decisionRequestSchema (used directly, without parseDecisionRequest's early size guard)", () => {
  it("enforces the question count itself", () => {
    const questions = (count: number) => Object.fromEntries(Array.from({ length: count }, (_, index) => [`q${index}`, noul]));
    expect(decisionRequestSchema.safeParse({ model: "m", state: "s", questions: questions(200) }).success).toBe(true);
    const result = decisionRequestSchema.safeParse({ model: "m", state: "s", questions: questions(201) });
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]?.path).toEqual(["questions"]);
  });

  it("enforces the criteria count itself", () => {
    const criteria = (count: number) => Object.fromEntries(Array.from({ length: count }, (_, index) => [`c${index}`, null]));
    const body = (count: number) => ({ model: "m", state: "s", questions: { q: { type: "choice", instructions: "?", criteria: criteria(count) } } });
    expect(decisionRequestSchema.safeParse(body(255)).success).toBe(true);
    const result = decisionRequestSchema.safeParse(body(256));
    expect(result.error?.issues[0]?.path).toEqual(["questions", "q", "criteria"]);
  });
});

import { describe, expect, it } from "vitest";
import { decisionLimits } from "./decision-limits.js";

describe("decisionLimits", () => {
  it("holds the spec's limits and cannot be changed", () => {
    expect(decisionLimits).toMatchObject({
      minQuestions: 1,
      maxQuestions: 200,
      minCriteria: 2,
      maxCriteria: 255,
      minModelLength: 1,
      maxModelLength: 1048576,
      maxRequestIdLength: 255,
      maxClientLabelLength: 97,
      minSessionIdLength: 1,
      maxSessionIdLength: 128,
    });
    expect(decisionLimits.outputCapFields).toEqual(["max_tokens", "max_output_tokens", "max_completion_tokens"]);
    expect(Object.isFrozen(decisionLimits)).toBe(true);
  });

  it("clientLabelPattern accepts application[/version] labels", () => {
    for (const label of ["my-app", "Cursor/1.2.3", "a", "Data Loader_2/0.9+build.7", `${"a".repeat(64)}/1${"x".repeat(31)}`]) {
      expect(decisionLimits.clientLabelPattern.test(label)).toBe(true);
    }
  });

  it("clientLabelPattern rejects malformed labels", () => {
    for (const label of ["", "-app", " app", "app/", "app/v1", "a".repeat(65), `app/1${"x".repeat(32)}`, "app/1/2", "äpp", "app/1 2"]) {
      expect(decisionLimits.clientLabelPattern.test(label)).toBe(false);
    }
  });

  it("sessionIdPattern accepts and rejects by character set", () => {
    expect(decisionLimits.sessionIdPattern.test("user-42:thread_7.a")).toBe(true);
    expect(decisionLimits.sessionIdPattern.test("has space")).toBe(false);
    expect(decisionLimits.sessionIdPattern.test("")).toBe(false);
  });
});

import { describe, expect, it } from "vitest";
import { validateSessionHeader } from "./validate-session-header.js";

describe("validateSessionHeader", () => {
  it("accepts 1 to 128 characters of the allowed alphabet", () => {
    expect(validateSessionHeader("chat:42_a.b-C", { affinityEnabled: true })).toBe("chat:42_a.b-C");
    expect(validateSessionHeader("x".repeat(128), { affinityEnabled: true })).toBe("x".repeat(128));
    expect(validateSessionHeader(undefined, { affinityEnabled: true })).toBeNull();
  });

  it("rejects invalid values with 400 on affinity routes and ignores them elsewhere", () => {
    for (const value of ["", "x".repeat(129), "has space", "ünicode", "a/b", ["a", "b"]]) {
      let error: unknown;
      try {
        validateSessionHeader(value, { affinityEnabled: true });
      } catch (caught) {
        error = caught;
      }
      expect(error, JSON.stringify(value)).toMatchObject({ code: "invalid_request", status: 400, param: "X-Gateway-Session" });
      expect(validateSessionHeader(value, { affinityEnabled: false })).toBeNull();
    }
  });
});

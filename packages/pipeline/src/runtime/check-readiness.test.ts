import { describe, expect, it } from "vitest";
import { checkReadiness } from "./check-readiness.js";

describe("checkReadiness", () => {
  it("is ready only when every check answers, names each failure, and bounds a check that hangs", async () => {
    const failures: string[] = [];
    const report = await checkReadiness(
      {
        database: async () => undefined,
        snapshot: () => {
          throw new Error("not loaded");
        },
        redis: () => new Promise(() => undefined),
      },
      { timeoutMs: 50, onFailure: (name) => failures.push(name) },
    );
    expect(report).toEqual({ ready: false, checks: { database: "ok", snapshot: "failed", redis: "failed" } });
    expect(failures.sort()).toEqual(["redis", "snapshot"]);
    expect(await checkReadiness({ database: () => 1 }, { timeoutMs: 50 })).toEqual({ ready: true, checks: { database: "ok" } });
  });
});

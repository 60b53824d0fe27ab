import type { UsageAttempt } from "@gateway/contracts";
import { GatewayError } from "@gateway/errors";
import { describe, expect, it } from "vitest";
import { callProvider } from "./call-provider.js";
import type { CallTarget } from "./call-target.js";
import type { RoutePlan } from "./resolve-route.js";

const target = (id: string): CallTarget => ({ connection: { id, name: `conn-${id}` }, qualifiedModel: `conn-${id}/model`, upstreamModel: "model" });
const plan = (targets: CallTarget[], maxAttemptsPerTarget: number): RoutePlan<CallTarget> => ({
  requestedModel: "fast",
  route: null,
  targets,
  maxAttemptsPerTarget,
  affinityKey: null,
} as unknown as RoutePlan<CallTarget>);
const upstream = (status: number) => new GatewayError(status === 429 ? "upstream_rate_limited" : "upstream_error", { details: { upstreamStatus: status } });

describe("callProvider's attempts", () => {
  it("records a retry on the same target, then a fallback, then the served attempt, each with status and why", async () => {
    const attempts: UsageAttempt[] = [];
    const answers = new Map<string, GatewayError[]>([["a", [upstream(503), upstream(429)]], ["b", []]]);
    const outcome = await callProvider<{ status: number }, CallTarget>({
      plan: { ...plan([target("a"), target("b")], 2), route: null },
      scope: { abort: { aborted: false }, deadline: Date.now() + 60_000 },
      attempts,
      statusOf: (result) => result.status,
      call: async (called) => {
        const failure = answers.get(called.connection.id)!.shift();
        if (failure !== undefined) throw failure;
        return { status: 200 };
      },
    });
    expect(outcome.target.connection.id).toBe("b");
    expect(attempts.map(({ latencyMs: _latency, ...rest }) => rest)).toEqual([
      { connectionId: "a", provider: "conn-a", model: "model", status: 503, errorCode: "upstream_error", outcome: "retried", reason: "upstream_5xx" },
      { connectionId: "a", provider: "conn-a", model: "model", status: 429, errorCode: "upstream_rate_limited", outcome: "fell_back", reason: "rate_limited" },
      { connectionId: "b", provider: "conn-b", model: "model", status: 200, errorCode: null, outcome: "served", reason: null },
    ]);
    expect(attempts.every((attempt) => attempt.latencyMs >= 0)).toBe(true);
  });

  it("marks the last attempt failed when no target is left, and a connect failure as such", async () => {
    const attempts: UsageAttempt[] = [];
    const refused = Object.assign(new Error("connect ECONNREFUSED 127.0.0.1:9"), { code: "ECONNREFUSED" });
    await expect(
      callProvider<{ status: number }, CallTarget>({
        plan: plan([target("a")], 1),
        scope: { abort: { aborted: false }, deadline: Date.now() + 60_000 },
        attempts,
        call: async () => {
          throw refused;
        },
      }),
    ).rejects.toBeDefined();
    expect(attempts).toMatchObject([{ connectionId: "a", status: null, outcome: "failed", reason: "connect_failure" }]);
  });
});

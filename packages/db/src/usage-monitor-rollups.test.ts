import { describe, expect, it } from "vitest";
import { aggregateMonitorRollups, monitorRollupColumnIndex, monitorWindowRanges } from "./usage-monitor-rollups.js";
import type { UsageEventRecord } from "@gateway/contracts";

const at = (text: string) => new Date(text);

describe("monitorWindowRanges", () => {
  it("reads whole hours from hour rows and the partial head and tail from minute rows", () => {
    expect(monitorWindowRanges(at("2026-01-01T10:25:00Z"), at("2026-01-01T13:40:00Z"))).toEqual({
      hours: [at("2026-01-01T11:00:00Z"), at("2026-01-01T13:00:00Z")],
      minutes: [
        [at("2026-01-01T10:25:00Z"), at("2026-01-01T11:00:00Z")],
        [at("2026-01-01T13:00:00Z"), at("2026-01-01T13:40:00Z")],
      ],
    });
  });

  it("reads a window inside one hour, or across one hour boundary, from minute rows only", () => {
    expect(monitorWindowRanges(at("2026-01-01T10:05:00Z"), at("2026-01-01T10:10:00Z"))).toEqual({ hours: null, minutes: [[at("2026-01-01T10:05:00Z"), at("2026-01-01T10:10:00Z")]] });
    expect(monitorWindowRanges(at("2026-01-01T10:55:00Z"), at("2026-01-01T11:05:00Z"))).toEqual({ hours: null, minutes: [[at("2026-01-01T10:55:00Z"), at("2026-01-01T11:05:00Z")]] });
  });

  it("needs no minute rows for a window on whole hours", () => {
    expect(monitorWindowRanges(at("2026-01-01T10:00:00Z"), at("2026-01-02T10:00:00Z"))).toEqual({ hours: [at("2026-01-01T10:00:00Z"), at("2026-01-02T10:00:00Z")], minutes: [] });
  });
});

describe("aggregateMonitorRollups", () => {
  const event = (overrides: Partial<UsageEventRecord>): UsageEventRecord =>
    ({
      requestId: "req_1", traceId: null, occurredAt: at("2026-01-01T10:05:30Z"), organizationId: "org", projectId: "project", apiKeyId: "key", userId: null,
      endpoint: "chat.completions", requestedModel: "alias", routeId: null, provider: "openai", model: "gpt", status: 200, errorCode: null,
      inputTokens: 3, outputTokens: 4, cacheReadTokens: 0, cacheWriteTokens: 0, reasoningTokens: 0, costMicros: 10, budgetOutcome: null,
      latencyMs: 120, timeToFirstByteMs: 40, clientLabel: null, sessionId: null, guardrailFlags: [], content: null, teamId: "team", connectionId: "connection",
      ...overrides,
    }) as UsageEventRecord;

  it("counts each call in its minute and its hour, with refusals by their error codes", () => {
    const groups = aggregateMonitorRollups([
      event({}),
      event({ status: 403, errorCode: "guardrail_blocked", occurredAt: at("2026-01-01T10:05:59Z") }),
      event({ status: 429, errorCode: "gateway_rate_limit_exceeded", rateLimitOutcome: "limited", occurredAt: at("2026-01-01T10:06:00Z") }),
      event({ status: 424, errorCode: "hard_budget_exceeded", budgetOutcome: "rejected:budget", occurredAt: at("2026-01-01T10:06:00Z") }),
      event({ status: 502, errorCode: "upstream_error", occurredAt: at("2026-01-01T10:59:00Z") }),
    ]);
    const minutes = groups.filter((group) => group.bucketMinutes === 1);
    const hours = groups.filter((group) => group.bucketMinutes === 60);
    expect(minutes.map((group) => [group.bucketStart.toISOString(), group.sums[monitorRollupColumnIndex.request_count]])).toEqual([
      ["2026-01-01T10:05:00.000Z", 2],
      ["2026-01-01T10:06:00.000Z", 2],
      ["2026-01-01T10:59:00.000Z", 1],
    ]);
    expect(hours).toHaveLength(1);
    const sums = hours[0]!.sums;
    expect(hours[0]!.key).toEqual(["org", "project", "team", "key", "gpt", "connection", ""]);
    expect({
      requests: sums[monitorRollupColumnIndex.request_count],
      errors: sums[monitorRollupColumnIndex.error_count],
      tokens: sums[monitorRollupColumnIndex.tokens],
      guardrail: sums[monitorRollupColumnIndex.guardrail_blocks],
      rateLimited: sums[monitorRollupColumnIndex.rate_limit_refusals],
      budget: sums[monitorRollupColumnIndex.budget_refusals],
      upstream: sums[monitorRollupColumnIndex.upstream_failures],
    }).toEqual({ requests: 5, errors: 4, tokens: 35, guardrail: 1, rateLimited: 1, budget: 1, upstream: 1 });
  });
});

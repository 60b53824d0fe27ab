import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { UsageEventRecord } from "@gateway/contracts";
import { writeUsageBatch } from "@gateway/db";
import { databaseTargets } from "./support/test-database.js";
import { startTestDashboard, type TestDashboard } from "./support/test-dashboard.js";

/** A fixed clock: Wednesday 2026-03-18 12:00 UTC (its ISO week started Monday 2026-03-16). */
const now = new Date("2026-03-18T12:00:00.000Z");

function event(overrides: Partial<UsageEventRecord>): UsageEventRecord {
  return {
    requestId: `req_${Math.random().toString(36).slice(2)}`,
    traceId: null,
    occurredAt: now,
    organizationId: null,
    projectId: null,
    apiKeyId: null,
    userId: null,
    endpoint: "chat_completions",
    requestedModel: "demo/demo/echo",
    routeId: null,
    provider: "demo",
    model: "demo/echo",
    status: 200,
    errorCode: null,
    inputTokens: 10,
    outputTokens: 5,
    cacheReadTokens: 0,
    cacheWriteTokens: 0,
    reasoningTokens: 0,
    costMicros: 1_000_000,
    budgetOutcome: null,
    latencyMs: 20,
    timeToFirstByteMs: null,
    clientLabel: null,
    sessionId: null,
    guardrailFlags: [],
    content: null,
    ...overrides,
  };
}

describe.each(databaseTargets)("budget and rate-limit status, usage series (%s)", (target) => {
  let harness: TestDashboard;
  let owner: string;
  let viewer: string;
  let organizationId: string;
  let projectId: string;
  let otherProjectId: string;
  let keyId: string;
  let teamKeyId: string;
  let teamId: string;

  beforeAll(async () => {
    harness = await startTestDashboard({ target, dependencies: { now: () => now } });
    organizationId = (await harness.createOrganization()).id;
    const ownerAccount = await harness.createMember({ organizationId, role: "owner" });
    owner = await harness.login(ownerAccount.email, ownerAccount.password);
    const viewerAccount = await harness.createMember({ organizationId, role: "viewer" });
    viewer = await harness.login(viewerAccount.email, viewerAccount.password);
    const post = async (path: string, body: unknown) => {
      const response = await harness.request("POST", path, { cookie: owner, body });
      expect(response.status, response.text).toBe(201);
      return response.body;
    };
    projectId = (await post("/api/projects", { name: "main" })).id;
    otherProjectId = (await post("/api/projects", { name: "other" })).id;
    teamId = (await post("/api/teams", { name: "research" })).id;
    keyId = (await post("/api/api-keys", { name: "plain", project_id: projectId })).id;
    teamKeyId = (await post("/api/api-keys", { name: "team key", project_id: otherProjectId, team_id: teamId })).id;
    const mine = { organizationId, projectId, apiKeyId: keyId };
    await writeUsageBatch(harness.database, [
      event({ ...mine, occurredAt: new Date("2026-03-18T11:59:30Z"), clientLabel: "cli", latencyMs: 40 }), // today, in the last minute
      event({ ...mine, occurredAt: new Date("2026-03-18T09:00:00Z"), clientLabel: "cli", latencyMs: 900, status: 502, errorCode: "upstream_error", costMicros: 0 }),
      event({ ...mine, occurredAt: new Date("2026-03-16T08:00:00Z"), clientLabel: "web" }), // this week
      event({ ...mine, occurredAt: new Date("2026-03-02T08:00:00Z") }), // this month
      event({ ...mine, occurredAt: new Date("2026-02-27T08:00:00Z") }), // an earlier month
      event({ organizationId, projectId: otherProjectId, apiKeyId: teamKeyId, occurredAt: new Date("2026-03-18T11:59:50Z"), costMicros: 2_500_000, inputTokens: 100, outputTokens: 50 }),
    ]);
  });
  afterAll(async () => harness.close());

  it("answers each budget's current period with its recorded spend, what remains and the thresholds reached", async () => {
    const create = async (body: Record<string, unknown>) => (await harness.request("POST", "/api/budgets", { cookie: owner, body: { mode: "soft", ...body } })).body.id as string;
    const daily = await create({ name: "daily", scope: "project", scope_id: projectId, amount_micros: 4_000_000, period: "day", thresholds: [0.25, 0.5] });
    const weekly = await create({ name: "weekly", scope: "key", scope_id: keyId, amount_micros: 2_000_000, period: "week", thresholds: [1] });
    const monthly = await create({ name: "monthly", scope: "organization", scope_id: organizationId, amount_micros: 10_000_000, period: "month" });
    const total = await create({ name: "total", scope: "project", scope_id: projectId, amount_micros: 10_000_000, period: "total" });
    const team = await create({ name: "team", scope: "team", scope_id: teamId, amount_micros: 2_000_000, period: "month", mode: "hard" });

    const response = await harness.request("GET", "/api/usage/budgets", { cookie: viewer });
    expect(response.status, response.text).toBe(200);
    const byId = new Map(response.body.data.map((status: { budget_id: string }) => [status.budget_id, status]));
    expect(byId.get(daily)).toEqual({
      budget_id: daily,
      period_key: "2026-03-18",
      period_start: "2026-03-18T00:00:00.000Z",
      period_end: "2026-03-19T00:00:00.000Z",
      amount_micros: 4_000_000,
      spent_micros: 1_000_000,
      remaining_micros: 3_000_000,
      used_fraction: 0.25,
      thresholds_reached: [0.25],
      reserved_micros: 0,
      spend_reset_at: null,
      source: "recorded_usage",
      object: "budget.status",
    });
    expect(byId.get(weekly)).toMatchObject({ period_key: "2026-W12", period_start: "2026-03-16T00:00:00.000Z", spent_micros: 2_000_000, remaining_micros: 0, used_fraction: 1, thresholds_reached: [1] });
    expect(byId.get(monthly)).toMatchObject({ period_key: "2026-03", spent_micros: 5_500_000, remaining_micros: 4_500_000 });
    expect(byId.get(total)).toMatchObject({ period_key: "total", period_start: null, period_end: null, spent_micros: 4_000_000 });
    // The team's budget counts its key only; overspent shows as a fraction above 1 and nothing remaining.
    expect(byId.get(team)).toMatchObject({ spent_micros: 2_500_000, remaining_micros: 0, used_fraction: 1.25 });
  });

  it("answers each rate limit's current window from the recorded calls it admitted", async () => {
    const projectLimit = (await harness.request("POST", "/api/rate-limits", { cookie: owner, body: { scope: "project", scope_id: projectId, window_seconds: 60, requests_per_window: 10 } })).body.id;
    const keyLimit = (await harness.request("POST", "/api/rate-limits", { cookie: owner, body: { scope: "key", scope_id: teamKeyId, window_seconds: 3600, tokens_per_window: 1000, concurrency: 2 } })).body.id;
    // Calls made before a limit existed are not its calls: right after creation it shows 0 used.
    const fresh = await harness.request("GET", "/api/usage/rate-limits", { cookie: viewer });
    expect(fresh.status).toBe(200);
    for (const status of fresh.body.data) expect(status).toMatchObject({ requests: 0, tokens: 0, source: "recorded_usage" });
    // Created before the window started (the test clock is fixed): the whole window counts.
    for (const id of [projectLimit, keyLimit]) await harness.database.prisma.rateLimit.update({ where: { id }, data: { createdAt: new Date("2026-03-01T00:00:00Z") } });
    const response = await harness.request("GET", "/api/usage/rate-limits", { cookie: viewer });
    expect(response.status).toBe(200);
    const byId = new Map(response.body.data.map((status: { rate_limit_id: string }) => [status.rate_limit_id, status]));
    expect(byId.get(projectLimit)).toEqual({
      rate_limit_id: projectLimit,
      window_start: "2026-03-18T11:59:00.000Z",
      window_end: "2026-03-18T12:00:00.000Z",
      requests: 1,
      tokens: 15,
      concurrent: null,
      requests_remaining: 9,
      tokens_remaining: null,
      source: "recorded_usage",
      object: "rate_limit.status",
    });
    expect(byId.get(keyLimit)).toMatchObject({ requests: 1, tokens: 150, requests_remaining: null, tokens_remaining: 850 });
  });

  it("answers usage per hour and client label with errors and latency, and checks the range", async () => {
    const response = await harness.request("GET", "/api/usage/series?interval=hour&group_by=client_label", { cookie: viewer });
    expect(response.status, response.text).toBe(200);
    // Default range: the last 24 hours.
    expect(response.body.data.map((point: { bucket_start: string; key: string; request_count: number; error_count: number }) => [point.bucket_start, point.key, point.request_count, point.error_count])).toEqual([
      ["2026-03-18T09:00:00.000Z", "cli", 1, 1],
      ["2026-03-18T11:00:00.000Z", "", 1, 0],
      ["2026-03-18T11:00:00.000Z", "cli", 1, 0],
    ]);
    expect(response.body.data[0]).toMatchObject({ group_by: "client_label", latency_ms_mean: 900, latency_ms_p50: 900, latency_ms_p95: 900, latency_ms_max: 900, time_to_first_byte_ms_mean: null, object: "usage.series_point" });

    const daily = await harness.request("GET", `/api/usage/series?interval=day&group_by=api_key&from=2026-03-01T00:00:00Z&to=2026-03-19T00:00:00Z&project_id=${projectId}`, { cookie: viewer });
    expect(daily.body.data.map((point: { bucket_start: string; key: string; request_count: number }) => [point.bucket_start.slice(0, 10), point.key, point.request_count])).toEqual([
      ["2026-03-02", keyId, 1],
      ["2026-03-16", keyId, 1],
      ["2026-03-18", keyId, 2],
    ]);

    const tooLong = await harness.request("GET", "/api/usage/series?interval=hour&from=2026-01-01T00:00:00Z&to=2026-03-01T00:00:00Z", { cookie: viewer });
    expect(tooLong.status).toBe(400);
    expect(tooLong.body.error).toMatchObject({ code: "invalid_request", details: { param: "from" } });
    const backwards = await harness.request("GET", "/api/usage/series?from=2026-03-02T00:00:00Z&to=2026-03-01T00:00:00Z", { cookie: viewer });
    expect(backwards.status).toBe(400);
    expect((await harness.request("GET", "/api/usage/series?group_by=team", { cookie: viewer })).status).toBe(400);
  });

  it("needs a session and the read permissions", async () => {
    for (const path of ["/api/usage/series", "/api/usage/budgets", "/api/usage/rate-limits"]) {
      expect((await harness.request("GET", path)).status, path).toBe(401);
    }
  });
});

describe.each(databaseTargets)("budget reset and admitted calls in a rate limit's window (%s)", (target) => {
  let harness: TestDashboard;
  let owner: string;
  let viewer: string;
  let organizationId: string;
  let projectId: string;
  let keyId: string;

  beforeAll(async () => {
    harness = await startTestDashboard({ target, dependencies: { now: () => now } });
    organizationId = (await harness.createOrganization()).id;
    const ownerAccount = await harness.createMember({ organizationId, role: "owner" });
    owner = await harness.login(ownerAccount.email, ownerAccount.password);
    const viewerAccount = await harness.createMember({ organizationId, role: "viewer" });
    viewer = await harness.login(viewerAccount.email, viewerAccount.password);
    projectId = (await harness.request("POST", "/api/projects", { cookie: owner, body: { name: "main" } })).body.id;
    keyId = (await harness.request("POST", "/api/api-keys", { cookie: owner, body: { name: "plain", project_id: projectId } })).body.id;
    const mine = { organizationId, projectId, apiKeyId: keyId };
    await writeUsageBatch(harness.database, [
      event({ ...mine, occurredAt: new Date("2026-03-10T08:00:00Z"), costMicros: 3_000_000 }),
      event({ ...mine, occurredAt: new Date("2026-03-18T11:59:30Z"), costMicros: 0 }),
      // Refused by a rate limit and by a budget (never reached a provider): not admitted calls.
      event({ ...mine, occurredAt: new Date("2026-03-18T11:59:40Z"), status: 429, errorCode: "gateway_rate_limit_exceeded", provider: null, model: null, costMicros: 0 }),
      event({ ...mine, occurredAt: new Date("2026-03-18T11:59:45Z"), status: 424, errorCode: "hard_budget_exceeded", provider: null, model: null, costMicros: 0 }),
    ]);
  });
  afterAll(async () => harness.close());

  it("counts only the admitted calls in a rate limit's window", async () => {
    const limit = (await harness.request("POST", "/api/rate-limits", { cookie: owner, body: { scope: "key", scope_id: keyId, window_seconds: 60, requests_per_window: 3 } })).body.id;
    await harness.database.prisma.rateLimit.update({ where: { id: limit }, data: { createdAt: new Date("2026-03-01T00:00:00Z") } });
    const response = await harness.request("GET", "/api/usage/rate-limits", { cookie: viewer });
    expect(response.body.data).toEqual([expect.objectContaining({ rate_limit_id: limit, requests: 1, requests_remaining: 2, source: "recorded_usage" })]);
  });

  it("lets an owner reset a budget's spend for the current period (audited), and not an admin", async () => {
    const created = await harness.request("POST", "/api/budgets", {
      cookie: owner,
      body: { name: "resettable", scope: "project", scope_id: projectId, amount_micros: 3_000_000, period: "month", mode: "hard" },
    });
    const id = created.body.id as string;
    const statusOf = async () =>
      ((await harness.request("GET", "/api/usage/budgets", { cookie: viewer })).body.data as { budget_id: string }[]).find((status) => status.budget_id === id);
    expect(await statusOf()).toMatchObject({ spent_micros: 3_000_000, remaining_micros: 0, spend_reset_at: null, source: "recorded_usage" });

    const adminAccount = await harness.createMember({ organizationId, role: "admin" });
    const admin = await harness.login(adminAccount.email, adminAccount.password);
    const refused = await harness.request("POST", `/api/budgets/${id}/reset`, { cookie: admin });
    expect(refused.status).toBe(403);
    expect(refused.body.error).toMatchObject({ code: "permission_denied" });

    const reset = await harness.request("POST", `/api/budgets/${id}/reset`, { cookie: owner });
    expect(reset.status, reset.text).toBe(200);
    expect(reset.body.spend_reset).toEqual({ period_key: "2026-03", baseline_micros: 3_000_000, reset_at: now.toISOString() });
    expect(await statusOf()).toMatchObject({ period_key: "2026-03", spent_micros: 0, remaining_micros: 3_000_000, spend_reset_at: now.toISOString() });

    // Spend recorded after the reset counts again.
    await writeUsageBatch(harness.database, [event({ organizationId, projectId, apiKeyId: keyId, occurredAt: new Date("2026-03-18T11:59:59Z"), costMicros: 400_000 })]);
    expect(await statusOf()).toMatchObject({ spent_micros: 400_000, remaining_micros: 2_600_000 });

    const audit = await harness.request("GET", "/api/audit-events?action=budget.reset", { cookie: owner });
    expect(audit.body.data.some((entry: { action: string; target_id: string }) => entry.action === "budget.reset" && entry.target_id === id)).toBe(true);
    expect((await harness.request("POST", "/api/budgets/budget_unknown/reset", { cookie: owner })).status).toBe(404);
  });

});

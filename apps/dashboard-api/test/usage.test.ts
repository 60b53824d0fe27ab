import type { UsageEventRecord } from "@gateway/contracts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { writeUsageBatch } from "@gateway/db";
import { databaseTargets } from "./support/test-database.js";
import { startTestDashboard, type TestDashboard } from "./support/test-dashboard.js";

function event(overrides: Partial<UsageEventRecord>): UsageEventRecord {
  return {
    requestId: `req_${Math.random().toString(36).slice(2)}`,
    traceId: null,
    occurredAt: new Date("2025-03-01T10:00:00Z"),
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
    costMicros: 100,
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

describe.each(databaseTargets)("usage (%s)", (target) => {
  let harness: TestDashboard;
  let cookie: string;
  let organizationId: string;

  beforeAll(async () => {
    harness = await startTestDashboard({ target });
    organizationId = (await harness.createOrganization()).id;
    const other = (await harness.createOrganization()).id;
    const owner = await harness.createMember({ organizationId, role: "viewer" });
    cookie = await harness.login(owner.email, owner.password);
    await writeUsageBatch(harness.database, [
      event({ organizationId, projectId: "p1", apiKeyId: "k1", occurredAt: new Date("2025-03-01T10:00:00Z") }),
      event({ organizationId, projectId: "p1", apiKeyId: "k1", occurredAt: new Date("2025-03-01T11:00:00Z"), status: 429, errorCode: "gateway_rate_limit_exceeded", costMicros: 0 }),
      event({ organizationId, projectId: "p2", apiKeyId: "k2", occurredAt: new Date("2025-03-02T09:00:00Z"), model: "demo/other", costMicros: 300 }),
      event({ organizationId, projectId: "p1", apiKeyId: "k1", occurredAt: new Date("2025-03-03T09:00:00Z") }),
      event({ organizationId: other, projectId: "px", apiKeyId: "kx", occurredAt: new Date("2025-03-01T10:00:00Z") }),
    ]);
  });
  afterAll(async () => harness.close());

  const get = (path: string) => harness.request("GET", path, { cookie });

  it("lists the organization's events newest first with filters", async () => {
    const all = await get("/api/usage/events");
    expect(all.status).toBe(200);
    expect(all.body.data).toHaveLength(4);
    expect(all.body.data.map((item: { occurred_at: string }) => item.occurred_at)).toEqual([
      "2025-03-03T09:00:00.000Z",
      "2025-03-02T09:00:00.000Z",
      "2025-03-01T11:00:00.000Z",
      "2025-03-01T10:00:00.000Z",
    ]);
    expect(all.body.data[0]).toMatchObject({ project_id: "p1", api_key_id: "k1", status: 200, cost_micros: 100, object: "usage.event" });
    expect((await get("/api/usage/events?project_id=p2")).body.data).toHaveLength(1);
    expect((await get("/api/usage/events?api_key_id=k1&status=error")).body.data.map((item: { status: number }) => item.status)).toEqual([429]);
    expect((await get("/api/usage/events?status=200")).body.data).toHaveLength(3);
    expect((await get("/api/usage/events?model=demo/other")).body.data).toHaveLength(1);
    expect((await get("/api/usage/events?from=2025-03-01T10:30:00Z&to=2025-03-03T00:00:00Z")).body.data).toHaveLength(2);
    expect((await get("/api/usage/events?from=yesterday")).status).toBe(400);
  });

  it("pages with a cursor", async () => {
    const first = await get("/api/usage/events?limit=3");
    expect(first.body).toMatchObject({ has_more: true });
    const second = await get(`/api/usage/events?limit=3&cursor=${first.body.next_cursor}`);
    expect(second.body).toMatchObject({ has_more: false, next_cursor: null });
    expect(second.body.data).toHaveLength(1);
    expect(second.body.data[0].occurred_at).toBe("2025-03-01T10:00:00.000Z");
  });

  it("answers daily totals per project, key and model", async () => {
    const byProject = await get("/api/usage/daily?group_by=project&from=2025-03-01&to=2025-03-03");
    expect(byProject.status).toBe(200);
    expect(byProject.body.data).toEqual([
      expect.objectContaining({ day: "2025-03-01", key: "p1", request_count: 2, error_count: 1, input_tokens: 20, cost_micros: 100, object: "usage.daily_total" }),
      expect.objectContaining({ day: "2025-03-02", key: "p2", request_count: 1, cost_micros: 300 }),
      expect.objectContaining({ day: "2025-03-03", key: "p1", request_count: 1 }),
    ]);
    const byModel = await get("/api/usage/daily?group_by=model&from=2025-03-01&to=2025-03-02");
    expect(byModel.body.data.map((row: { key: string }) => row.key)).toEqual(["demo/demo/echo", "demo/demo/other"]);
    const byKey = await get("/api/usage/daily?group_by=api_key&from=2025-03-01&to=2025-03-03&api_key_id=k1");
    expect(byKey.body.data.map((row: { day: string; request_count: number }) => [row.day, row.request_count])).toEqual([
      ["2025-03-01", 2],
      ["2025-03-03", 1],
    ]);
  });
});

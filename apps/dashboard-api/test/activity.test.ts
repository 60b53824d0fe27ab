import { randomBytes } from "node:crypto";
import type { UsageEventRecord } from "@gateway/contracts";
import { setProjectMembershipsOfUser, writeUsageBatch } from "@gateway/db";
import { parse as parseCsv } from "csv-parse/sync";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { databaseTargets } from "./support/test-database.js";
import { startTestDashboard, type TestDashboard } from "./support/test-dashboard.js";

type Event = UsageEventRecord & { content?: unknown };

function event(overrides: Partial<Event>): Event {
  return {
    requestId: `req_${randomBytes(6).toString("hex")}`,
    traceId: null,
    occurredAt: new Date("2026-03-01T10:00:00Z"),
    organizationId: null,
    projectId: null,
    apiKeyId: null,
    userId: null,
    endpoint: "chat_completions",
    requestedModel: "fast",
    routeId: null,
    provider: "openai",
    model: "gpt-a",
    status: 200,
    errorCode: null,
    inputTokens: 10,
    outputTokens: 5,
    cacheReadTokens: 0,
    cacheWriteTokens: 0,
    reasoningTokens: 0,
    costMicros: 100,
    budgetOutcome: null,
    latencyMs: 50,
    timeToFirstByteMs: null,
    clientLabel: null,
    sessionId: null,
    guardrailFlags: [],
    content: null,
    ...overrides,
  };
}

const at = (minutes: number) => new Date(Date.UTC(2026, 2, 1, 10, minutes));

describe.each(databaseTargets)("activity (%s)", (target) => {
  let harness: TestDashboard;
  let organizationId: string;
  let otherOrganizationId: string;
  let ownerCookie: string;
  let memberCookie: string;
  let otherOwnerCookie: string;
  let projectOne: string;
  let projectTwo: string;
  const id = randomBytes(3).toString("hex");
  const requests = { served: `req_served_${id}`, limited: `req_limited_${id}`, failed: `req_failed_${id}`, dev: `req_dev_${id}`, other: `req_other_${id}` };
  const capturedContent = { request: { messages: [{ role: "user", content: "hello, \"world\"" }] }, response: { choices: [{ message: { content: "hi" } }] } };

  beforeAll(async () => {
    harness = await startTestDashboard({ target });
    organizationId = (await harness.createOrganization()).id;
    otherOrganizationId = (await harness.createOrganization()).id;
    const owner = await harness.createMember({ organizationId, role: "owner" });
    const member = await harness.createMember({ organizationId, role: "member" });
    const otherOwner = await harness.createMember({ organizationId: otherOrganizationId, role: "owner" });
    ownerCookie = await harness.login(owner.email, owner.password);
    const createProject = async (name: string) => (await harness.request("POST", "/api/projects", { cookie: ownerCookie, body: { name } })).body.id as string;
    projectOne = await createProject(`one ${id}`);
    projectTwo = await createProject(`two ${id}`);
    await setProjectMembershipsOfUser(harness.database, { organizationId, userId: member.userId, projectIds: [projectOne] });
    memberCookie = await harness.login(member.email, member.password);
    otherOwnerCookie = await harness.login(otherOwner.email, otherOwner.password);

    await writeUsageBatch(
      harness.database,
      [
        event({
          requestId: requests.served,
          occurredAt: at(1),
          organizationId,
          projectId: projectOne,
          apiKeyId: "key_one",
          teamId: "team_one",
          userId: "user_one",
          connectionId: "conn_primary",
          clientLabel: "cli",
          clientVersion: "1.2.0",
          sessionId: "chat-1",
          metadata: { env: "prod", customer: "acme" },
          latencyMs: 120,
          timeToFirstByteMs: 40,
          gatewayOverheadMs: 3,
          costMicros: 500,
          attempts: [
            { connectionId: "conn_backup", provider: "backup", model: "gpt-a", status: 503, latencyMs: 30, errorCode: "upstream_error", outcome: "retried", reason: "upstream_5xx" },
            { connectionId: "conn_primary", provider: "openai", model: "gpt-a", status: 200, latencyMs: 80, errorCode: null, outcome: "served", reason: null },
          ],
          content: capturedContent,
          contentCapture: { maxBytes: 65_536, retentionDays: 36_500 },
        }),
        event({
          requestId: requests.limited,
          occurredAt: at(2),
          organizationId,
          projectId: projectOne,
          apiKeyId: "key_one",
          teamId: "team_one",
          userId: "user_one",
          sessionId: "chat-1",
          model: null,
          provider: null,
          status: 429,
          errorCode: "gateway_rate_limit_exceeded",
          errorMessage: "Rate limit exceeded for this key.",
          rateLimitOutcome: "limited",
          latencyMs: 2,
          costMicros: 0,
          inputTokens: 0,
          outputTokens: 0,
          clientLabel: "=HYPERLINK(\"x\")",
        }),
        event({
          requestId: requests.failed,
          occurredAt: at(3),
          organizationId,
          projectId: projectTwo,
          apiKeyId: "key_two",
          teamId: "team_two",
          userId: "user_two",
          endpoint: "messages",
          requestedModel: "claude-b",
          provider: "anthropic",
          model: "claude-b",
          connectionId: "conn_claude",
          status: 502,
          errorCode: "upstream_error",
          errorMessage: "The provider failed.",
          guardrailFlags: ["pii"],
          budgetOutcome: "soft_exceeded",
          sessionId: "chat-2",
          latencyMs: 3000,
          costMicros: 9000,
          attempts: [
            { connectionId: "conn_claude", provider: "anthropic", model: "claude-b", status: null, latencyMs: 1500, errorCode: "upstream_timeout", outcome: "fell_back", reason: "timeout" },
            { connectionId: "conn_claude_eu", provider: "anthropic", model: "claude-b", status: 502, latencyMs: 1400, errorCode: "upstream_error", outcome: "failed", reason: "upstream_5xx" },
          ],
        }),
        event({
          requestId: requests.dev,
          occurredAt: at(4),
          organizationId,
          projectId: projectTwo,
          apiKeyId: "key_two",
          userId: "user_two",
          sessionId: "chat-1",
          metadata: { env: "dev" },
          clientLabel: "cli",
          clientVersion: "2.0.0",
          costMicros: 100,
        }),
        event({
          requestId: requests.other,
          occurredAt: at(5),
          organizationId: otherOrganizationId,
          projectId: "project_elsewhere",
          apiKeyId: "key_one",
          sessionId: "chat-1",
          content: { request: { secret: "other organization" }, response: null },
        }),
      ],
      { secretBox: harness.secretBox },
    );
  });
  afterAll(async () => harness.close());

  const get = (path: string, cookie = ownerCookie) => harness.request("GET", path, { cookie });
  const requestIds = async (query: string, cookie = ownerCookie) => {
    const response = await get(`/api/activity${query}`, cookie);
    expect(response.status, response.text).toBe(200);
    return response.body.data.map((call: { request_id: string }) => call.request_id);
  };

  it("lists the organization's calls newest first, every field present", async () => {
    const response = await get("/api/activity");
    expect(response.body).toMatchObject({ object: "list", has_more: false, next_cursor: null });
    expect(response.body.data.map((call: { request_id: string }) => call.request_id)).toEqual([requests.dev, requests.failed, requests.limited, requests.served]);
    const served = response.body.data[3];
    expect(served).toEqual({
      id: expect.any(String),
      request_id: requests.served,
      occurred_at: "2026-03-01T10:01:00.000Z",
      project_id: projectOne,
      team_id: "team_one",
      api_key_id: "key_one",
      user_id: "user_one",
      endpoint: "chat_completions",
      requested_model: "fast",
      model: "gpt-a",
      provider: "openai",
      connection_id: "conn_primary",
      status: 200,
      error_code: null,
      input_tokens: 10,
      output_tokens: 5,
      cache_read_tokens: 0,
      cache_write_tokens: 0,
      reasoning_tokens: 0,
      cost_micros: 500,
      latency_ms: 120,
      time_to_first_byte_ms: 40,
      gateway_overhead_ms: 3,
      client_label: "cli",
      client_version: "1.2.0",
      session_id: "chat-1",
      metadata: { env: "prod", customer: "acme" },
      guardrail_flags: [],
      budget_outcome: null,
      rate_limit_outcome: null,
      attempt_count: 2,
      has_content: true,
      object: "activity.call",
    });
  });

  it.each([
    ["from/to", `?from=2026-03-01T10:02:00Z&to=2026-03-01T10:04:00Z`, ["failed", "limited"]],
    ["project_id", () => `?project_id=${projectTwo}`, ["dev", "failed"]],
    ["team_id", "?team_id=team_one", ["limited", "served"]],
    ["api_key_id", "?api_key_id=key_two", ["dev", "failed"]],
    ["user_id", "?user_id=user_one", ["limited", "served"]],
    ["requested_model", "?requested_model=claude-b", ["failed"]],
    ["model", "?model=gpt-a", ["dev", "served"]],
    ["connection_id", "?connection_id=conn_claude", ["failed"]],
    ["endpoint", "?endpoint=messages", ["failed"]],
    ["status (number)", "?status=429", ["limited"]],
    ["status (class)", "?status=2xx", ["dev", "served"]],
    ["status 5xx", "?status=5xx", ["failed"]],
    ["error_code", "?error_code=gateway_rate_limit_exceeded", ["limited"]],
    ["client_label", "?client_label=cli", ["dev", "served"]],
    ["client_version", "?client_version=2.0.0", ["dev"]],
    ["session_id", "?session_id=chat-1", ["dev", "limited", "served"]],
    ["metadata", "?metadata=env:prod", ["served"]],
    ["metadata (all pairs)", "?metadata=env:prod&metadata=customer:acme", ["served"]],
    ["metadata (no match)", "?metadata=env:prod&metadata=customer:other", []],
    ["min_latency_ms", "?min_latency_ms=100", ["failed", "served"]],
    ["min_cost_micros", "?min_cost_micros=500", ["failed", "served"]],
    ["max_cost_micros", "?max_cost_micros=100", ["dev", "limited"]],
    ["cost range", "?min_cost_micros=100&max_cost_micros=500", ["dev", "served"]],
    ["guardrail_flagged", "?guardrail_flagged=true", ["failed"]],
    ["budget_outcome", "?budget_outcome=soft_exceeded", ["failed"]],
    ["rate_limit_outcome", "?rate_limit_outcome=limited", ["limited"]],
    ["request_id", () => `?request_id=${requests.served}`, ["served"]],
  ] as const)("filters by %s", async (_name, query, expected) => {
    const path = typeof query === "function" ? query() : query;
    expect(await requestIds(path)).toEqual(expected.map((name) => requests[name]));
  });

  it("answers 400 in the documented body for a bad query", async () => {
    for (const query of ["?status=abc", "?limit=500", "?metadata=no-colon", "?from=yesterday", "?guardrail_flagged=maybe", "?min_cost_micros=-1", "?session_id=a%20b"]) {
      const response = await get(`/api/activity${query}`);
      expect(response.status, query).toBe(400);
      expect(response.body.error).toMatchObject({ code: "invalid_request", message: expect.any(String) });
      expect(response.headers.get("x-request-id")).toBeTruthy();
    }
    const cursor = await get("/api/activity?cursor=not-a-cursor");
    expect(cursor.status).toBe(400);
    expect(cursor.body.error).toMatchObject({ code: "invalid_request" });
    expect((await get("/api/activity/export?format=xml")).status).toBe(400);
  });

  it("shows one call with its attempts, timings and error", async () => {
    const served = await get(`/api/activity/${requests.served}`);
    expect(served.status).toBe(200);
    expect(served.body).toMatchObject({
      object: "activity.call.detail",
      request_id: requests.served,
      attempts: [
        { connection_id: "conn_backup", provider: "backup", status: 503, latency_ms: 30, error_code: "upstream_error", outcome: "retried", reason: "upstream_5xx" },
        { connection_id: "conn_primary", provider: "openai", status: 200, latency_ms: 80, error_code: null, outcome: "served", reason: null },
      ],
      error: null,
      timings: { gateway_overhead_ms: 3, time_to_first_byte_ms: 40, total_ms: 120 },
    });
    expect(served.body).not.toHaveProperty("content");
    const failed = await get(`/api/activity/${requests.failed}`);
    expect(failed.body).toMatchObject({
      attempts: [
        { status: null, outcome: "fell_back", reason: "timeout" },
        { connection_id: "conn_claude_eu", status: 502, outcome: "failed", reason: "upstream_5xx" },
      ],
      error: { code: "upstream_error", message: "The provider failed." },
      guardrail_flags: ["pii"],
      budget_outcome: "soft_exceeded",
    });
    const limited = await get(`/api/activity/${requests.limited}`);
    expect(limited.body).toMatchObject({ attempts: [], rate_limit_outcome: "limited", error: { code: "gateway_rate_limit_exceeded", message: "Rate limit exceeded for this key." } });
    // A gateway request id carries its time: found near it, and also when recorded far from it.
    const gatewayId = (ms: number, suffix: string) => `req_${ms.toString(36).padStart(9, "0")}${suffix.padEnd(16, "x")}`;
    const near = gatewayId(at(30).getTime(), `near${id}`);
    const far = gatewayId(at(30).getTime() - 5 * 86_400_000, `far${id}`);
    await writeUsageBatch(harness.database, [
      event({ requestId: near, occurredAt: at(30), organizationId, projectId: projectTwo, status: 201 }),
      event({ requestId: far, occurredAt: at(31), organizationId, projectId: projectTwo, status: 202 }),
    ]);
    expect((await get(`/api/activity/${near}`)).body).toMatchObject({ request_id: near, status: 201 });
    expect((await get(`/api/activity/${far}`)).body).toMatchObject({ request_id: far, status: 202 });
    expect((await get(`/api/activity/${near}`, otherOwnerCookie)).status).toBe(404);
    const missing = await get(`/api/activity/req_missing_${id}`);
    expect(missing.status).toBe(404);
    expect(missing.body.error.code).toBe("not_found");
  });

  it("reads captured content with activity:content only, audits each read, 404 when none", async () => {
    const content = await get(`/api/activity/${requests.served}/content`);
    expect(content.status, content.text).toBe(200);
    expect(content.body).toEqual({ object: "activity.content", request: capturedContent.request, response: capturedContent.response, truncated: false, captured_at: "2026-03-01T10:01:00.000Z" });
    const audit = await harness.database.prisma.auditEvent.findMany({ where: { organizationId, action: "activity.content_read" } });
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({ targetType: "activity.call", targetId: requests.served, actorKind: "user" });

    const denied = await get(`/api/activity/${requests.served}/content`, memberCookie);
    expect(denied.status).toBe(403);
    expect(denied.body.error).toMatchObject({ code: "permission_denied", details: { permission: "activity:content" } });

    const none = await get(`/api/activity/${requests.limited}/content`);
    expect(none.status).toBe(404);
    expect(none.body.error.code).toBe("content_not_captured");
    // Another organization's call (its content exists) is simply not found.
    const foreign = await get(`/api/activity/${requests.other}/content`);
    expect(foreign.status).toBe(404);
    expect(foreign.body.error.code).toBe("not_found");
    expect(await harness.database.prisma.auditEvent.count({ where: { action: "activity.content_read" } })).toBe(1);
  });

  it("groups sessions by project, key, user and session id, with totals", async () => {
    const response = await get("/api/activity/sessions");
    expect(response.status, response.text).toBe(200);
    expect(response.body.data).toEqual([
      expect.objectContaining({ object: "activity.session", session_id: "chat-1", project_id: projectTwo, api_key_id: "key_two", call_count: 1, models: ["gpt-a"] }),
      expect.objectContaining({ session_id: "chat-2", project_id: projectTwo, call_count: 1, error_count: 1, cost_micros: 9000, models: ["claude-b"] }),
      {
        object: "activity.session",
        session_id: "chat-1",
        project_id: projectOne,
        api_key_id: "key_one",
        user_id: "user_one",
        first_at: "2026-03-01T10:01:00.000Z",
        last_at: "2026-03-01T10:02:00.000Z",
        call_count: 2,
        error_count: 1,
        input_tokens: 10,
        output_tokens: 5,
        cost_micros: 500,
        models: ["fast", "gpt-a"],
      },
    ]);
    // Walking one session per page visits each once, in the same order.
    const walked: string[] = [];
    let cursor: string | null = null;
    do {
      const page: { body: { data: { session_id: string; project_id: string }[]; next_cursor: string | null } } = await get(`/api/activity/sessions?limit=1${cursor ? `&cursor=${cursor}` : ""}`);
      walked.push(...page.body.data.map((session) => `${session.session_id}/${session.project_id}`));
      cursor = page.body.next_cursor;
    } while (cursor !== null);
    expect(walked).toEqual([`chat-1/${projectTwo}`, `chat-2/${projectTwo}`, `chat-1/${projectOne}`]);
    // Filters apply to the calls counted.
    const errors = await get("/api/activity/sessions?status=4xx");
    expect(errors.body.data).toEqual([expect.objectContaining({ session_id: "chat-1", project_id: projectOne, call_count: 1 })]);

    const calls = await get(`/api/activity/sessions/chat-1?project_id=${projectOne}&api_key_id=key_one`);
    expect(calls.body.data.map((call: { request_id: string }) => call.request_id)).toEqual([requests.served, requests.limited]);
    expect((await get("/api/activity/sessions/chat-1")).body.data).toHaveLength(3);
  });

  it("keeps other organizations' calls and sessions invisible, and members to their projects", async () => {
    expect(await requestIds("", otherOwnerCookie)).toEqual([requests.other]);
    expect((await get("/api/activity/sessions", otherOwnerCookie)).body.data.map((session: { session_id: string; project_id: string }) => session.project_id)).toEqual([
      "project_elsewhere",
    ]);
    expect((await get(`/api/activity/${requests.served}`, otherOwnerCookie)).status).toBe(404);
    expect((await get(`/api/activity/sessions/chat-1?project_id=${projectOne}`, otherOwnerCookie)).status).toBe(404);
    expect((await get(`/api/activity/${requests.other}`)).status).toBe(404);

    expect(await requestIds("", memberCookie)).toEqual([requests.limited, requests.served]);
    expect(await requestIds(`?project_id=${projectTwo}`, memberCookie)).toEqual([]);
    expect((await get(`/api/activity/${requests.failed}`, memberCookie)).status).toBe(404);
    expect((await get("/api/activity/sessions/chat-2", memberCookie)).status).toBe(404);
    expect((await get("/api/activity/sessions", memberCookie)).body.data.map((session: { project_id: string }) => session.project_id)).toEqual([projectOne]);
    expect((await get("/api/activity/sessions/chat-1", memberCookie)).body.data.map((call: { request_id: string }) => call.request_id)).toEqual([
      requests.served,
      requests.limited,
    ]);
    const exported = await get("/api/activity/export?format=ndjson", memberCookie);
    expect(exported.text.trim().split("\n").map((line) => JSON.parse(line).request_id)).toEqual([requests.limited, requests.served]);
  });

  it("exports exactly what the list shows, as NDJSON and CSV attachments", async () => {
    for (const query of ["", "&status=2xx", `&project_id=${projectOne}`, "&metadata=env:none"]) {
      const listed = (await get(`/api/activity?limit=200${query}`)).body.data;
      const ndjson = await get(`/api/activity/export?format=ndjson${query}`);
      expect(ndjson.status).toBe(200);
      expect(ndjson.headers.get("content-type")).toContain("application/x-ndjson");
      expect(ndjson.headers.get("content-disposition")).toMatch(/^attachment; filename="activity-.+\.ndjson"$/);
      const lines = ndjson.text === "" ? [] : ndjson.text.trimEnd().split("\n").map((line) => JSON.parse(line));
      expect(lines).toEqual(listed);

      const csv = await get(`/api/activity/export?format=csv${query}`);
      expect(csv.status).toBe(200);
      expect(csv.headers.get("content-type")).toContain("text/csv");
      expect(csv.headers.get("content-disposition")).toMatch(/^attachment; filename="activity-.+\.csv"$/);
      const records = parseCsv(csv.text, { columns: true }) as Record<string, string>[];
      expect(records.map((record) => record.request_id)).toEqual(listed.map((call: { request_id: string }) => call.request_id));
      for (const [index, record] of records.entries()) {
        const call = listed[index];
        expect(JSON.parse(record.metadata!)).toEqual(call.metadata);
        expect(record.cost_micros).toBe(String(call.cost_micros));
        expect(record.has_content).toBe(String(call.has_content));
        expect(record.model).toBe(call.model ?? "");
      }
      expect(Object.keys(records[0] ?? {}).length === 0 || Object.keys(records[0]!).includes("session_id")).toBe(true);
    }
    // A value a spreadsheet would run as a formula is neutralised; quotes and commas survive.
    const csv = await get(`/api/activity/export?format=csv&request_id=${requests.limited}`);
    const [record] = parseCsv(csv.text, { columns: true }) as Record<string, string>[];
    expect(record!.client_label).toBe("'=HYPERLINK(\"x\")");
    const served = parseCsv((await get(`/api/activity/export?format=csv&request_id=${requests.served}`)).text, { columns: true }) as Record<string, string>[];
    expect(JSON.parse(served[0]!.metadata!)).toEqual({ env: "prod", customer: "acme" });
    // No match: a header row only.
    const empty = await get("/api/activity/export?format=csv&request_id=none");
    expect(empty.text.trim().split("\n")).toHaveLength(1);
    expect(empty.text).toMatch(/^id,request_id,occurred_at,/);
  });

  it("pages without duplicates or gaps while newer calls arrive", async () => {
    const organization = (await harness.createOrganization()).id;
    const owner = await harness.createMember({ organizationId: organization, role: "owner" });
    const cookie = await harness.login(owner.email, owner.password);
    // 25 calls, several sharing one timestamp (the id orders those).
    const original = Array.from({ length: 25 }, (_, index) => event({ organizationId: organization, requestId: `req_page_${id}_${index}`, occurredAt: at(10 + Math.floor(index / 3)) }));
    await writeUsageBatch(harness.database, original);
    const seen: string[] = [];
    let cursor: string | null = null;
    let arrivals = 0;
    do {
      const page: { body: { data: { request_id: string }[]; next_cursor: string | null } } = await get(`/api/activity?limit=7${cursor ? `&cursor=${cursor}` : ""}`, cookie);
      seen.push(...page.body.data.map((call) => call.request_id));
      cursor = page.body.next_cursor;
      // Newer calls recorded between two pages (one at the very time of the newest call).
      arrivals += 1;
      await writeUsageBatch(harness.database, [
        event({ organizationId: organization, requestId: `req_new_${id}_${arrivals}`, occurredAt: at(40 + arrivals) }),
        event({ organizationId: organization, requestId: `req_same_${id}_${arrivals}`, occurredAt: at(10 + 8) }),
      ]);
    } while (cursor !== null);
    expect(new Set(seen).size).toBe(seen.length);
    const expected = [...original].reverse().map((call) => call.requestId);
    // Every original call appears once, newest first (ties by id); calls that arrived later are
    // newer (or tie the newest time with a later id) and so never slip into later pages.
    expect(seen).toEqual(expected);
    const fresh = await get("/api/activity?limit=3", cookie);
    expect(fresh.body.data.map((call: { request_id: string }) => call.request_id)).toEqual([`req_new_${id}_${arrivals}`, `req_new_${id}_${arrivals - 1}`, `req_new_${id}_${arrivals - 2}`]);
  });
});

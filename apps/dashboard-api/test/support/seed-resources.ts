import { randomBytes } from "node:crypto";
import { writeUsageBatch } from "@gateway/db";
import { expect } from "vitest";
import type { TestDashboard } from "./test-dashboard.js";

/** Ids of one resource of every kind, keyed by the path parameter name that addresses it. */
export type ResourceIds = Record<string, string>;

async function created(harness: TestDashboard, cookie: string, path: string, body: unknown): Promise<string> {
  const response = await harness.request("POST", path, { cookie, body });
  expect(response.status, `${path}: ${response.text}`).toBe(201);
  return response.body.id as string;
}

/**
 * Creates one resource of every kind in an organization through the API (as an owner) and
 * answers their ids by path parameter name.
 */
export async function seedResources(harness: TestDashboard, input: { organizationId: string; cookie: string }): Promise<ResourceIds> {
  const { cookie, organizationId } = input;
  const member = await harness.createMember({ organizationId, role: "member" });
  const project_id = await created(harness, cookie, "/api/projects", { name: `project ${Math.random()}` });
  const connection_id = await created(harness, cookie, "/api/connections", { name: "demo", kind: "demo", models: ["demo/echo"] });
  const keyResponse = await harness.request("POST", "/api/api-keys", { cookie, body: { name: "key", project_id } });
  expect(keyResponse.status).toBe(201);
  const api_key_id = keyResponse.body.id as string;
  const team_id = await created(harness, cookie, "/api/teams", { name: "team", default_role: "member" });
  const policy_id = await created(harness, cookie, "/api/policies", { scope: "project", scope_id: project_id, allow: ["demo/*"] });
  const route_id = await created(harness, cookie, "/api/routes", { alias: "fast", targets: [{ model: "demo/demo/echo" }] });
  const budget_id = await created(harness, cookie, "/api/budgets", { name: "cap", scope: "project", scope_id: project_id, amount_micros: 1_000_000, period: "month", mode: "soft" });
  const rate_limit_id = await created(harness, cookie, "/api/rate-limits", { scope: "key", scope_id: api_key_id, requests_per_window: 10 });
  const invitation_id = await created(harness, cookie, "/api/invitations", { email: `invitee-${Math.random()}@example.com`, role: "viewer" });
  const destination_id = await created(harness, cookie, "/api/telemetry-destinations", {
    name: "otlp",
    config: { kind: "otlp_http", endpoint: "http://127.0.0.1:9/v1/traces" },
  });
  const channel_id = await created(harness, cookie, "/api/notification-channels", {
    name: "hook",
    config: { kind: "webhook", url: "http://127.0.0.1:9/hook", secret: "0123456789abcdef0123" },
  });
  const monitor_id = await created(harness, cookie, "/api/monitors", {
    name: "errors",
    metric: "error_rate",
    scope: { kind: "project", value: project_id },
    window_minutes: 15,
    comparator: "gt",
    threshold: 0.5,
    channel_ids: [channel_id],
  });
  const server_id = await created(harness, cookie, "/api/mcp/servers", { name: "mcp", url: "http://127.0.0.1:9/mcp", auth_kind: "oauth" });
  const token = await harness.database.prisma.mcpToken.create({
    data: { organizationId, serverId: server_id, name: "grant", prefix: "abc", tokenHash: null, scopes: [] },
  });
  // Single sign-on on a closed loopback port: configured, never reachable.
  const sso = await harness.request("PUT", "/api/sso-configuration", { cookie, body: { issuer_url: "http://127.0.0.1:9", client_id: "seeded", client_secret: "seeded-client-secret" } });
  expect(sso.status, sso.text).toBe(200);
  const ownerId = (await harness.request("GET", "/v1/auth/session", { cookie })).body.user.id as string;
  const ssoTest = await harness.database.prisma.ssoLoginState.create({
    data: { organizationId, userId: ownerId, stateHash: `seeded-${Math.random()}`, purpose: "test", secretsCiphertext: "unused", expiresAt: new Date(), consumedAt: new Date(), result: { object: "sso.test_result" } },
  });
  // One recorded call (with captured content) in a session, for the activity routes.
  const request_id = `req_${randomBytes(8).toString("hex")}`;
  const session_id = `session-${randomBytes(4).toString("hex")}`;
  await writeUsageBatch(
    harness.database,
    [
      {
        requestId: request_id, traceId: null, occurredAt: new Date(), organizationId, projectId: project_id, apiKeyId: api_key_id, userId: null,
        endpoint: "chat_completions", requestedModel: "demo/demo/echo", routeId: null, provider: "demo", model: "demo/echo", status: 200,
        errorCode: null, inputTokens: 1, outputTokens: 1, cacheReadTokens: 0, cacheWriteTokens: 0, reasoningTokens: 0, costMicros: 1,
        budgetOutcome: null, latencyMs: 5, timeToFirstByteMs: null, clientLabel: null, sessionId: session_id, guardrailFlags: [],
        content: { request: { messages: [] }, response: null },
      },
    ],
    { secretBox: harness.secretBox },
  );
  return {
    test_id: ssoTest.id,
    request_id,
    session_id,
    project_id,
    connection_id,
    api_key_id,
    team_id,
    user_id: member.userId,
    policy_id,
    route_id,
    budget_id,
    rate_limit_id,
    invitation_id,
    destination_id,
    channel_id,
    monitor_id,
    server_id,
    token_id: token.id,
  };
}

/** Fills `{name}` placeholders of a route path. */
export function fillPath(path: string, ids: Record<string, string>): string {
  return path.replace(/\{([a-z_]+)\}/g, (_match, name: string) => {
    const id = ids[name];
    if (id === undefined) throw new Error(`no fixture id for {${name}}`);
    return id;
  });
}

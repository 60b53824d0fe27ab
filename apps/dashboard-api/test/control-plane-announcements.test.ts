import { randomBytes } from "node:crypto";
import {
  createMembership,
  createOrganization,
  createSecretBox,
  createUser,
  hashPassword,
  loadControlPlaneSnapshot,
  readControlPlaneVersion,
} from "@gateway/db";
import { type SnapshotHolder, type UsageQueue, authenticateMcpCaller, controlPlaneChannelName, createSnapshotHolder, createUsageQueue, runListModels } from "@gateway/pipeline";
import { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { createSilentLogger } from "../src/dashboard-logger.js";
import { isControlPlaneAction } from "../src/services/control-plane-announcer.js";
import { type RunningDashboard, startDashboard } from "../src/start-dashboard.js";
import { openTestDatabase, type TestDatabase } from "./support/test-database.js";
import { startTestDashboard, type TestDashboard } from "./support/test-dashboard.js";

const redisUrl = process.env.TEST_REDIS_URL;
if (!redisUrl && process.env.CI) throw new Error("TEST_REDIS_URL must be set in CI (the dashboard's Redis announcements are tested against it).");
if (!redisUrl) console.warn("TEST_REDIS_URL is not set: the dashboard's Redis announcement test is SKIPPED.");

describe("which audited actions are control-plane writes", () => {
  it("announces key, project, connection, route, policy, budget, limit, team, member, organization and MCP server and token changes only", () => {
    for (const action of ["api_key.created", "api_key.revoked", "project.deleted", "connection.updated", "route.created", "policy.updated", "budget.deleted", "rate_limit.created", "team.member_added", "member.removed", "organization.updated", "invitation.accepted", "mcp_server.created", "mcp_server.deleted", "mcp_token.issued", "mcp_token.revoked"]) {
      expect(isControlPlaneAction(action), action).toBe(true);
    }
    for (const action of ["auth.login", "auth.logout", "connection.tested", "invitation.created", "telemetry_destination.updated", "notification_channel.created"]) {
      expect(isControlPlaneAction(action), action).toBe(false);
    }
  });
});

describe.skipIf(!redisUrl)("startDashboard with REDIS_URL", () => {
  const keyPrefix = `dashboard-test-${randomBytes(6).toString("hex")}:`;
  const origin = "http://dashboard.test";
  let testDatabase: TestDatabase;
  let dashboard: RunningDashboard;
  let subscriber: Redis;
  const messages: { version: string | null; origin: string | null; changes?: { version: string; table: string; ids: string[] | null }[] }[] = [];
  let cookie: string;

  async function call(method: string, path: string, body?: unknown): Promise<{ status: number; body: any }> {
    const response = await fetch(`${dashboard.url}${path}`, {
      method,
      headers: { cookie, origin, ...(body === undefined ? {} : { "content-type": "application/json" }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    return { status: response.status, body: text === "" ? null : JSON.parse(text) };
  }

  beforeAll(async () => {
    testDatabase = await openTestDatabase("sqlite");
    const database = testDatabase.database;
    subscriber = new Redis(redisUrl!);
    subscriber.on("message", (channel: string, message: string) => {
      if (channel === controlPlaneChannelName(keyPrefix)) messages.push(JSON.parse(message) as (typeof messages)[number]);
    });
    await subscriber.subscribe(controlPlaneChannelName(keyPrefix));
    dashboard = await startDashboard({
      database,
      secretBox: createSecretBox({ keys: [{ id: "test", key: randomBytes(32) }], activeKeyId: "test" }),
      environment: { REDIS_URL: redisUrl, GATEWAY_REDIS_KEY_PREFIX: keyPrefix, DASHBOARD_PORT: "0", DASHBOARD_ORIGIN: origin },
      logger: createSilentLogger(),
    });
    const organization = await createOrganization(database, { name: "Announce", slug: `announce-${randomBytes(3).toString("hex")}` });
    const password = "password-long-enough";
    const user = await createUser(database, { email: "owner@example.com", passwordHash: await hashPassword(password, { N: 1024, r: 8, p: 1 }) });
    await createMembership(database, { organizationId: organization.id, userId: user.id, role: "owner" });
    const login = await fetch(`${dashboard.url}/v1/auth/login`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ email: "owner@example.com", password }),
    });
    expect(login.status).toBe(200);
    cookie = (login.headers.get("set-cookie") ?? "").split(";")[0]!;
  });

  afterAll(async () => {
    await dashboard?.close();
    await subscriber?.quit();
    await testDatabase?.dispose();
  });

  it("publishes the new control-plane version on <GATEWAY_REDIS_KEY_PREFIX>control-plane when a key is revoked", async () => {
    const project = await call("POST", "/api/projects", { name: "p" });
    expect(project.status).toBe(201);
    const key = await call("POST", "/api/api-keys", { name: "k", project_id: project.body.id });
    expect(key.status).toBe(201);
    await vi.waitFor(() => expect(messages.length).toBeGreaterThanOrEqual(2), { timeout: 3000, interval: 10 });

    const announcedBefore = messages.length;
    const revoked = await call("DELETE", `/api/api-keys/${key.body.id}`);
    expect(revoked.status).toBe(200);
    expect(revoked.body.status).toBe("revoked");
    const version = await readControlPlaneVersion(testDatabase.database);
    await vi.waitFor(() => expect(messages.length).toBe(announcedBefore + 1), { timeout: 3000, interval: 10 });
    // With what changed, so that gateways one version behind delete the key without reading anything.
    expect(messages.at(-1)).toEqual({ version, origin: null, changes: [{ version, table: "api_keys", ids: [key.body.id] }] });

    // Not a control-plane write: nothing announced. Announcements go out in order on one connection, so once the
    // project created afterwards is announced, an announcement of the notification channel would have arrived too.
    const countBefore = messages.length;
    const channel = await call("POST", "/api/notification-channels", {
      name: "ops",
      events: ["budget.threshold"],
      config: { kind: "slack", webhook_url: "https://hooks.slack.com/services/T000/B000/XXXX" },
    });
    expect(channel.status).toBe(201);
    expect((await call("POST", "/api/projects", { name: "q" })).status).toBe(201);
    await vi.waitFor(() => expect(messages.length).toBeGreaterThan(countBefore), { timeout: 3000, interval: 10 });
    expect(messages.length).toBe(countBefore + 1);
    expect(messages.at(-1)!.version).toBe(await readControlPlaneVersion(testDatabase.database));
  });
});

describe("in-process gateway refresh (pnpm start)", () => {
  let harness: TestDashboard;
  let snapshots: SnapshotHolder;
  let usageQueue: UsageQueue;
  let cookie: string;
  const changes: { action: string; version: string | null }[] = [];

  beforeAll(async () => {
    const secretBox = createSecretBox({ keys: [{ id: "test", key: randomBytes(32) }], activeKeyId: "test" });
    // The gateway's snapshot holder polls once a minute here: only the dashboard's hook can make a change visible at once.
    let holder: SnapshotHolder | undefined;
    harness = await startTestDashboard({
      dependencies: {
        secretBox,
        // What scripts/start.mjs wires: refresh twice, since a check already in flight may have read the version before the write.
        onControlPlaneChange: async (change) => {
          changes.push(change);
          await holder?.refresh();
          await holder?.refresh();
        },
      },
    });
    const database = harness.database;
    snapshots = createSnapshotHolder({
      source: { load: () => loadControlPlaneSnapshot(database, { secretBox }), readVersion: () => readControlPlaneVersion(database) },
      pollIntervalMs: 60_000,
    });
    await snapshots.start();
    holder = snapshots;
    usageQueue = createUsageQueue({ sink: { write: async () => undefined }, flushIntervalMs: 10 });
    const organizationId = (await harness.createOrganization()).id;
    const owner = await harness.createMember({ organizationId, role: "owner" });
    cookie = await harness.login(owner.email, owner.password);
  });

  afterAll(async () => {
    await snapshots?.stop();
    await usageQueue?.close({ timeoutMs: 1000 });
    await harness?.close();
  });

  function listModels(apiKey: string): number {
    const dependencies = { snapshots, usage: usageQueue, requestTimeoutMs: 10_000 };
    return runListModels(dependencies, { requestId: `req_${randomBytes(4).toString("hex")}`, headers: { authorization: `Bearer ${apiKey}` } }).status;
  }

  it("serves a key created through the dashboard and refuses it right after the DELETE answers, without waiting for the poll", async () => {
    const project = await harness.request("POST", "/api/projects", { cookie, body: { name: "p" } });
    const key = await harness.request("POST", "/api/api-keys", { cookie, body: { name: "k", project_id: project.body.id } });
    expect(key.status).toBe(201);
    expect(listModels(key.body.secret)).toBe(200);

    const revoked = await harness.request("DELETE", `/api/api-keys/${key.body.id}`, { cookie });
    expect(revoked.status).toBe(200);
    expect(listModels(key.body.secret)).toBe(401);
    expect(changes.at(-1)).toEqual({ action: "api_key.revoked", version: await readControlPlaneVersion(harness.database) });
    expect(snapshots.current().version).toBe(changes.at(-1)!.version);
  });

  it("serves an MCP token issued through the dashboard and refuses it right after the DELETE answers, as API keys are", async () => {
    const project = await harness.request("POST", "/api/projects", { cookie, body: { name: "mcp" } });
    const key = await harness.request("POST", "/api/api-keys", { cookie, body: { name: "k", project_id: project.body.id } });
    const token = await harness.request("POST", "/api/mcp/tokens", { cookie, body: { name: "my IDE", api_key_id: key.body.id } });
    expect(token.status).toBe(201);
    const headers = { authorization: `Bearer ${token.body.token}` };
    expect(authenticateMcpCaller(headers, snapshots.current()).mcpToken?.id).toBe(token.body.id);

    const revoked = await harness.request("DELETE", `/api/mcp/tokens/${token.body.id}`, { cookie });
    expect(revoked.status).toBe(200);
    expect(() => authenticateMcpCaller(headers, snapshots.current())).toThrow(expect.objectContaining({ code: "invalid_gateway_api_key" }));
    expect(changes.at(-1)).toMatchObject({ action: "mcp_token.revoked" });
  });

  it("never fails the write when the in-process refresh fails", async () => {
    const failing = await startTestDashboard({ dependencies: { onControlPlaneChange: async () => Promise.reject(new Error("gateway gone")) } });
    try {
      const organizationId = (await failing.createOrganization()).id;
      const owner = await failing.createMember({ organizationId, role: "owner" });
      const ownerCookie = await failing.login(owner.email, owner.password);
      const project = await failing.request("POST", "/api/projects", { cookie: ownerCookie, body: { name: "p" } });
      expect(project.status).toBe(201);
    } finally {
      await failing.close();
    }
  });
});

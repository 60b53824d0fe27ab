import { spawnSync } from "node:child_process";
import { createClient } from "@libsql/client";
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  addTeamMember,
  createApiKey,
  createMcpServer,
  createMcpToken,
  completeMcpServerOAuth,
  beginMcpServerOAuth,
  createMembership,
  createNotificationChannel,
  createOrganization,
  createPolicy,
  createProject,
  createSecretBox,
  createTeam,
  createTelemetryDestination,
  createUser,
  getNotificationChannel,
  getTelemetryDestination,
  listUsageEvents,
  loadControlPlaneSnapshot,
  openDataPlaneDatabase,
  readControlPlaneVersion,
  upsertBudgetByName,
  listBudgets,
  listRateLimits,
  budgetCounterVersion,
  upsertConnectionByName,
  upsertRateLimit,
  upsertRouteByAlias,
  listEnabledNotificationChannels,
  getMcpServer,
  getMcpServerTokens,
  hashToken,
  listMcpTokens,
  markMcpServerAuthorizationFailed,
  readMcpServerGrant,
  revokeApiKey,
  revokeMcpToken,
  storeRefreshedMcpServerTokens,
  listEnabledTelemetryDestinations,
  recordNotificationDelivery,
  recordTelemetryDelivery,
  writeUsageBatch,
  type DataPlaneDatabase,
  type Database,
} from "../src/index.js";
import { databaseTargets, type FreshDatabase } from "./database-targets.js";
import { usageEvent } from "./usage-event-fixture.js";

const secretBox = createSecretBox({ keys: [{ id: "test", key: randomBytes(32) }], activeKeyId: "test" });

/** Runs `read` with the process in a zone far from UTC: a timestamp read as local time would move. */
async function inOtherTimeZone<T>(read: () => Promise<T>): Promise<T> {
  const previous = process.env.TZ;
  process.env.TZ = "America/New_York";
  try {
    return await read();
  } finally {
    if (previous === undefined) delete process.env.TZ;
    else process.env.TZ = previous;
  }
}

describe.each(databaseTargets)("the data-plane database (raw driver, no Prisma) on $provider", (target) => {
  let fresh: FreshDatabase;
  let db: Database;
  let dataPlane: DataPlaneDatabase;

  beforeAll(async () => {
    if (target.skip) return;
    fresh = await target.fresh();
    db = fresh.open();
    await db.migrate();
    dataPlane = openDataPlaneDatabase({ url: fresh.url, postgresqlPoolSize: 2 });
  });
  afterAll(async () => {
    if (target.skip) return;
    await dataPlane.close();
    await db.close();
    await fresh.cleanup();
  });

  it.skipIf(target.skip)("loads exactly what the repositories stored: dates in UTC, booleans, big integers, JSON, nulls", async () => {
    const org = await createOrganization(db, { name: "Acme", slug: `acme-${randomBytes(3).toString("hex")}` });
    const plain = await createProject(db, { organizationId: org.id, name: "plain" });
    const captured = await createProject(db, { organizationId: org.id, name: "captured", captureContent: true });
    const user = await createUser(db, { email: `u-${randomBytes(3).toString("hex")}@example.com`, name: "U", passwordHash: null });
    const team = await createTeam(db, { organizationId: org.id, name: "team", defaultRole: "member" });
    await createMembership(db, { organizationId: org.id, userId: user.id, role: "member" });
    await addTeamMember(db, { organizationId: org.id, teamId: team.id, userId: user.id });
    const expiresAt = new Date("2031-05-06T07:08:09.123Z");
    const expiring = await createApiKey(db, { organizationId: org.id, projectId: captured.id, name: "expiring", teamId: team.id, createdByUserId: user.id, expiresAt });
    const forever = await createApiKey(db, { organizationId: org.id, projectId: plain.id, name: "forever" });
    await upsertConnectionByName(
      db,
      {
        organizationId: org.id,
        name: "b-off",
        kind: "anthropic",
        baseUrl: null,
        credential: null,
        headers: { "x-extra": "1" },
        models: ["claude"],
        upstreamModelNames: {},
        prices: { claude: { input: 3, output: 15, cacheRead: 0.3, cacheWrite: 3.75, maxOutputTokens: 8192, contextWindow: 200000 } },
        enabled: false,
        defaultMaxTokens: 2048,
      },
      { secretBox },
    );
    await upsertConnectionByName(
      db,
      { organizationId: org.id, name: "a-on", kind: "openai", baseUrl: "http://127.0.0.1:9/v1", credential: "sk-raw-read", models: ["gpt"], logprobs: false, timeouts: { idleMs: 30_000, maxDurationMs: 0 }, responsesApi: true, modelEndpoints: { gpt: ["chat", "responses"] }, settings: { deployments: { gpt: "gpt-prod" }, apiVersion: "2024-10-21" } },
      { secretBox },
    );
    await upsertRouteByAlias(db, { organizationId: org.id, alias: "fast", strategy: "priority", targets: [{ model: "a-on/gpt", weight: 1 }], affinity: { enabled: false, ttlSeconds: 90 }, retry: { maxAttempts: 3 } });
    const guardrails = { pii: { email: "redact" }, blocklist: ["secret project"] };
    await createPolicy(db, { organizationId: org.id, scope: "project", scopeId: captured.id, name: "p", allow: ["a-on/*"], deny: ["b-off/*"], guardrails });
    await upsertBudgetByName(db, { organizationId: org.id, name: "big", scope: "team", scopeId: team.id, amountMicros: 9_007_199_254_740, period: "total", mode: "soft", thresholds: [0.5, 0.9] });
    await upsertRateLimit(db, { organizationId: org.id, scope: "project", scopeId: plain.id, windowSeconds: 3600, tokensPerWindow: 100_000, concurrency: 4 });

    const snapshot = await inOtherTimeZone(() => loadControlPlaneSnapshot(dataPlane, { secretBox }));
    expect(snapshot.version).toBe(await readControlPlaneVersion(db));
    expect(snapshot.organizations.filter((entry) => entry.id === org.id)).toEqual([{ id: org.id, name: "Acme", slug: org.slug }]);
    expect(snapshot.projects.filter((entry) => entry.organizationId === org.id).sort((a, b) => a.name.localeCompare(b.name))).toEqual([
      { id: captured.id, organizationId: org.id, name: "captured", captureContent: true, contentMaxBytes: 65_536, contentRetentionDays: 7 },
      { id: plain.id, organizationId: org.id, name: "plain", captureContent: false, contentMaxBytes: 65_536, contentRetentionDays: 7 },
    ]);
    const keys = snapshot.apiKeys.filter((key) => key.organizationId === org.id);
    expect(keys.find((key) => key.id === expiring.apiKey.id)).toEqual({
      id: expiring.apiKey.id,
      organizationId: org.id,
      projectId: captured.id,
      teamId: team.id,
      name: "expiring",
      secretHash: expiring.apiKey.secretHash,
      expiresAt,
      createdByUserId: user.id,
      defaultMetadata: {},
    });
    expect(keys.find((key) => key.id === forever.apiKey.id)).toMatchObject({ teamId: null, expiresAt: null, createdByUserId: null });
    // Ordered by organization, then name.
    expect(snapshot.connections.filter((entry) => entry.organizationId === org.id).map(({ id: _id, ...rest }) => rest)).toEqual([
      {
        organizationId: org.id,
        name: "a-on",
        kind: "openai",
        baseUrl: "http://127.0.0.1:9/v1",
        credential: "sk-raw-read",
        headers: {},
        models: ["gpt"],
        upstreamModelNames: {},
        enabled: true,
        prices: {},
        logprobs: false,
        defaultMaxTokens: null,
        timeouts: { idleMs: 30_000, maxDurationMs: 0 },
        responsesApi: true,
        modelEndpoints: { gpt: ["chat", "responses"] },
        settings: { deployments: { gpt: "gpt-prod" }, apiVersion: "2024-10-21" },
      },
      {
        organizationId: org.id,
        name: "b-off",
        kind: "anthropic",
        baseUrl: null,
        credential: null,
        headers: { "x-extra": "1" },
        models: ["claude"],
        upstreamModelNames: {},
        enabled: false,
        prices: { claude: { input: 3, output: 15, cacheRead: 0.3, cacheWrite: 3.75, maxOutputTokens: 8192, contextWindow: 200000 } },
        logprobs: null,
        defaultMaxTokens: 2048,
        timeouts: {},
        responsesApi: null,
        modelEndpoints: {},
        settings: {},
      },
    ]);
    expect(snapshot.routes.filter((entry) => entry.organizationId === org.id).map(({ id: _id, ...rest }) => rest)).toEqual([
      { organizationId: org.id, alias: "fast", strategy: "priority", targets: [{ model: "a-on/gpt", weight: 1 }], affinity: { enabled: false, ttlSeconds: 90 }, retry: { maxAttempts: 3 } },
    ]);
    expect(snapshot.policies.filter((entry) => entry.organizationId === org.id).map(({ id: _id, ...rest }) => rest)).toEqual([
      { organizationId: org.id, scope: "project", scopeId: captured.id, allow: ["a-on/*"], deny: ["b-off/*"], guardrails },
    ]);
    const [storedBudget] = await listBudgets(db, org.id);
    expect(snapshot.budgets.filter((entry) => entry.organizationId === org.id).map(({ id: _id, ...rest }) => rest)).toEqual([
      {
        organizationId: org.id,
        name: "big",
        scope: "team",
        scopeId: team.id,
        amountMicros: 9_007_199_254_740,
        period: "total",
        mode: "soft",
        thresholds: [0.5, 0.9],
        // The counter version is the row's updated_at, exactly as the dashboard derives it from the repository's record.
        counterVersion: budgetCounterVersion(storedBudget!.updatedAt),
        spendReset: null,
      },
    ]);
    expect(snapshot.rateLimits.filter((entry) => entry.organizationId === org.id).map(({ id: _id, ...rest }) => rest)).toEqual([
      { organizationId: org.id, scope: "project", scopeId: plain.id, windowSeconds: 3600, requestsPerWindow: null, tokensPerWindow: 100_000, concurrency: 4, createdAt: (await listRateLimits(db, org.id))[0]!.createdAt },
    ]);
  });

  it.skipIf(target.skip)("names the row and column of stored JSON that is not JSON", async () => {
    const org = await createOrganization(db, { name: "Broken", slug: `broken-${randomBytes(3).toString("hex")}` });
    const connection = await upsertConnectionByName(db, { organizationId: org.id, name: "c", kind: "openai", models: ["m"] }, { secretBox });
    const placeholder = db.provider === "postgresql" ? "$1" : "?";
    // jsonb cannot hold non-JSON text; a JSON value of the wrong shape is the PostgreSQL case.
    const value = db.provider === "postgresql" ? `'{"not": "a list"}'::jsonb` : `'[not json'`;
    await db.prisma.$executeRawUnsafe(`UPDATE connections SET models = ${value} WHERE id = ${placeholder}`, connection.id);
    await expect(loadControlPlaneSnapshot(dataPlane, { secretBox })).rejects.toThrow(`invalid stored JSON in connections ${connection.id} models`);
    await db.prisma.$executeRawUnsafe(`DELETE FROM connections WHERE id = ${placeholder}`, connection.id);
  });

  it.skipIf(target.skip)("writes usage with time-ordered ids that the dashboard's queries read back", async () => {
    const org = await createOrganization(db, { name: "Usage", slug: `usage-${randomBytes(3).toString("hex")}` });
    const base = usageEvent({ requestId: "req_1", occurredAt: new Date("2026-11-22T10:00:00.000Z"), organizationId: org.id, costMicros: 7 });
    const events = Array.from({ length: 300 }, (_, index) => ({ ...base, requestId: `req_${index}` }));
    expect(await writeUsageBatch(dataPlane, events)).toBe(300);
    const stored = await db.prisma.usageEvent.findMany({ where: { organizationId: org.id }, orderBy: { id: "asc" } });
    expect(stored.map((row) => row.requestId)).toEqual(events.map((event) => event.requestId));
    const page = await listUsageEvents(db, { organizationId: org.id, limit: 1 });
    expect(page.data[0]).toMatchObject({ requestId: "req_299", occurredAt: base.occurredAt, costMicros: 7 });
  });

  it.skipIf(target.skip)("records the keys' last use with a usage batch (also without events), never moving it back nor the control-plane version", async () => {
    const org = await createOrganization(db, { name: "Activity", slug: `activity-${randomBytes(3).toString("hex")}` });
    const project = await createProject(db, { organizationId: org.id, name: "p" });
    const { apiKey: used } = await createApiKey(db, { organizationId: org.id, projectId: project.id, name: "used" });
    const { apiKey: idle } = await createApiKey(db, { organizationId: org.id, projectId: project.id, name: "idle" });
    const first = new Date("2026-11-22T10:00:00.123Z");
    const version = await readControlPlaneVersion(dataPlane);
    const event = usageEvent({ organizationId: org.id, projectId: project.id, apiKeyId: used.id, occurredAt: first });
    expect(await inOtherTimeZone(() => writeUsageBatch(dataPlane, [event], { apiKeysLastUsed: new Map([[used.id, first]]) }))).toBe(1);
    const lastUsed = async (id: string) => (await db.prisma.apiKey.findUniqueOrThrow({ where: { id } })).lastUsedAt;
    expect(await lastUsed(used.id)).toEqual(first);
    expect(await lastUsed(idle.id)).toBeNull();
    // An older time (another gateway's late batch) does not move it back; a later one does, without events (shutdown).
    await writeUsageBatch(dataPlane, [], { apiKeysLastUsed: new Map([[used.id, new Date("2026-11-22T09:59:00.000Z")]]) });
    expect(await lastUsed(used.id)).toEqual(first);
    const later = new Date("2026-11-22T10:01:30.000Z");
    expect(await writeUsageBatch(dataPlane, [], { apiKeysLastUsed: new Map([[used.id, later]]) })).toBe(0);
    expect(await lastUsed(used.id)).toEqual(later);
    expect(await readControlPlaneVersion(dataPlane)).toBe(version);
    expect((await db.prisma.apiKey.findUniqueOrThrow({ where: { id: used.id } })).updatedAt).toEqual(used.updatedAt);
  });

  it.skipIf(target.skip)("lists enabled delivery targets with decrypted configs and records delivery outcomes", async () => {
    const org = await createOrganization(db, { name: "Targets", slug: `targets-${randomBytes(3).toString("hex")}` });
    const webhook = await createTelemetryDestination(db, { organizationId: org.id, name: "hook", kind: "webhook", config: { kind: "webhook", url: "http://127.0.0.1:9/hook", secret: "s3cret" } }, { secretBox });
    await createTelemetryDestination(db, { organizationId: org.id, name: "off", kind: "webhook", config: { kind: "webhook", url: "http://127.0.0.1:9/off", secret: "s3cret" }, enabled: false }, { secretBox });
    const channel = await createNotificationChannel(db, { organizationId: org.id, name: "ops", kind: "webhook", config: { kind: "webhook", url: "http://127.0.0.1:9/n", secret: "s3cret" }, events: ["budget.threshold"] }, { secretBox });

    const destinations = await listEnabledTelemetryDestinations(dataPlane, { secretBox, organizationId: org.id });
    expect(destinations).toEqual([{ ...webhook, config: { kind: "webhook", url: "http://127.0.0.1:9/hook", secret: "s3cret" } }]);
    const channels = await listEnabledNotificationChannels(dataPlane, { secretBox, organizationId: org.id });
    expect(channels).toEqual([{ ...channel, config: { kind: "webhook", url: "http://127.0.0.1:9/n", secret: "s3cret" } }]);
    expect((await listEnabledTelemetryDestinations(dataPlane, { secretBox })).some((entry) => entry.id === webhook.id)).toBe(true);

    const at = new Date("2026-11-22T11:12:13.456Z");
    await inOtherTimeZone(() => recordTelemetryDelivery(dataPlane, webhook.id, { ok: false, at }));
    await recordNotificationDelivery(dataPlane, channel.id, { ok: true, at });
    expect(await getTelemetryDestination(db, org.id, webhook.id)).toMatchObject({ lastDeliveryOk: false, lastDeliveryAt: at });
    expect(await getNotificationChannel(db, org.id, channel.id)).toMatchObject({ lastDeliveryOk: true, lastDeliveryAt: at });
    const [listed] = await inOtherTimeZone(() => listEnabledTelemetryDestinations(dataPlane, { secretBox, organizationId: org.id }));
    expect(listed).toMatchObject({ lastDeliveryOk: false, lastDeliveryAt: at });
  });
  it.skipIf(target.skip)("leaves a delivery target whose stored configuration does not match its schema out of the sender's list", async () => {
    const org = await createOrganization(db, { name: "Bad targets", slug: `bad-targets-${randomBytes(3).toString("hex")}` });
    // Written past the typed input (as a hand-written row or an older release could have): a webhook without its secret.
    await createTelemetryDestination(db, { organizationId: org.id, name: "no-secret", kind: "webhook", config: { kind: "webhook", url: "http://127.0.0.1:9/hook" } as never }, { secretBox });
    const good = await createTelemetryDestination(db, { organizationId: org.id, name: "good", kind: "otlp_http", config: { kind: "otlp_http", endpoint: "http://127.0.0.1:9/v1/traces" } }, { secretBox });
    await createNotificationChannel(db, { organizationId: org.id, name: "no-recipients", kind: "email", config: { kind: "email" } as never }, { secretBox });
    expect((await listEnabledTelemetryDestinations(dataPlane, { secretBox, organizationId: org.id })).map((entry) => entry.id)).toEqual([good.id]);
    expect(await listEnabledNotificationChannels(dataPlane, { secretBox, organizationId: org.id })).toEqual([]);
  });

  it.skipIf(target.skip)("serves MCP servers and issued MCP tokens in the snapshot; their changes move the version (not last_used_at)", async () => {
    const org = await createOrganization(db, { name: "Mcp", slug: `mcp-${randomBytes(3).toString("hex")}` });
    const project = await createProject(db, { organizationId: org.id, name: "p" });
    const { apiKey } = await createApiKey(db, { organizationId: org.id, projectId: project.id, name: "k" });
    const server = await createMcpServer(db, { organizationId: org.id, name: "tickets", url: "http://127.0.0.1:9/mcp", transport: "streamable_http", authKind: "bearer", bearerToken: "upstream-bearer" }, { secretBox });
    const open = await createMcpServer(db, { organizationId: org.id, name: "open", url: "http://127.0.0.1:9/open", transport: "streamable_http", authKind: "none" }, { secretBox });
    const issued = await createMcpToken(db, { organizationId: org.id, apiKeyId: apiKey.id, serverId: server.id, name: "ide", prefix: "gmt_abc", tokenHash: hashToken("gmt_secret") });
    await createMcpToken(db, { organizationId: org.id, serverId: server.id, name: "grant record", prefix: "at_xyz" });

    const snapshot = await loadControlPlaneSnapshot(dataPlane, { secretBox });
    expect(snapshot.mcpServers.filter((entry) => entry.organizationId === org.id)).toEqual([
      { id: open.id, organizationId: org.id, name: "open", url: "http://127.0.0.1:9/open", transport: "streamable_http", authKind: "none", status: "connected", accessToken: null, accessTokenExpiresAt: null },
      { id: server.id, organizationId: org.id, name: "tickets", url: "http://127.0.0.1:9/mcp", transport: "streamable_http", authKind: "bearer", status: "connected", accessToken: "upstream-bearer", accessTokenExpiresAt: null },
    ]);
    expect(snapshot.mcpTokens.filter((entry) => entry.organizationId === org.id)).toEqual([
      { id: issued.id, organizationId: org.id, apiKeyId: apiKey.id, serverId: server.id, userId: null, tokenHash: hashToken("gmt_secret"), expiresAt: null },
    ]);

    const placeholder = db.provider === "postgresql" ? "$1" : "?";
    const before = await readControlPlaneVersion(dataPlane);
    await db.prisma.$executeRawUnsafe(`UPDATE mcp_tokens SET last_used_at = CURRENT_TIMESTAMP WHERE id = ${placeholder}`, issued.id);
    expect(await readControlPlaneVersion(dataPlane)).toBe(before);
    await revokeMcpToken(db, { organizationId: org.id, id: issued.id });
    const afterRevoke = await readControlPlaneVersion(dataPlane);
    expect(afterRevoke).not.toBe(before);
    expect((await loadControlPlaneSnapshot(dataPlane, { secretBox })).mcpTokens.some((entry) => entry.id === issued.id)).toBe(false);
    await db.prisma.$executeRawUnsafe(`DELETE FROM mcp_servers WHERE id = ${placeholder}`, open.id);
    expect(await readControlPlaneVersion(dataPlane)).not.toBe(afterRevoke);

    // Revoking the key a token acts as revokes the token with it; deleting the key deletes it.
    const second = await createMcpToken(db, { organizationId: org.id, apiKeyId: apiKey.id, name: "cli", prefix: "gmt_def", tokenHash: hashToken("gmt_other") });
    await revokeApiKey(db, { organizationId: org.id, id: apiKey.id });
    const afterKeyRevoked = await loadControlPlaneSnapshot(dataPlane, { secretBox });
    expect(afterKeyRevoked.apiKeys.some((key) => key.id === apiKey.id)).toBe(false);
    expect(afterKeyRevoked.mcpTokens.some((entry) => entry.id === second.id)).toBe(false);
    expect((await listMcpTokens(db, { organizationId: org.id, includeRevoked: true })).find((token) => token.id === second.id)?.revokedAt).not.toBeNull();
    await db.prisma.apiKey.delete({ where: { id: apiKey.id } });
    expect((await listMcpTokens(db, { organizationId: org.id, includeRevoked: true })).map((token) => token.name)).toEqual(["grant record"]);
  });

  it.skipIf(target.skip)("refreshes an MCP server's OAuth grant on the raw driver: compare and swap, encrypted, grant expiry moved; failures marked", async () => {
    const org = await createOrganization(db, { name: "Grants", slug: `grants-${randomBytes(3).toString("hex")}` });
    const server = await createMcpServer(db, { organizationId: org.id, name: "oauth", url: "http://127.0.0.1:9/mcp", transport: "streamable_http", authKind: "oauth" }, { secretBox });
    await beginMcpServerOAuth(
      db,
      {
        organizationId: org.id,
        id: server.id,
        stateHash: hashToken(`state-${server.id}`),
        codeVerifier: "verifier",
        redirectUri: "http://127.0.0.1:9/callback",
        expiresAt: new Date(Date.now() + 60_000),
        metadata: { token_endpoint: "http://127.0.0.1:9/token", resource: "http://127.0.0.1:9/mcp" },
        clientRegistration: { client_id: "client-1", token_endpoint_auth_method: "client_secret_basic" },
        clientSecret: "client-secret",
      },
      { secretBox },
    );
    const expiresAt = new Date("2026-11-22T10:00:00.000Z");
    const { token: grantRecord } = await completeMcpServerOAuth(
      db,
      { organizationId: org.id, id: server.id, tokens: { accessToken: "at_1", refreshToken: "rt_1", tokenType: "Bearer" }, expiresAt, userId: null, grant: { name: "oauth (OAuth)", prefix: "at_1", scopes: [] } },
      { secretBox },
    );
    const grant = await inOtherTimeZone(() => readMcpServerGrant(dataPlane, server.id, { secretBox }));
    expect(grant).toMatchObject({
      serverId: server.id,
      organizationId: org.id,
      name: "oauth",
      authKind: "oauth",
      tokens: { accessToken: "at_1", refreshToken: "rt_1" },
      expiresAt,
      tokenEndpoint: "http://127.0.0.1:9/token",
      resource: "http://127.0.0.1:9/mcp",
      client: { clientId: "client-1", clientSecret: "client-secret", tokenEndpointAuthMethod: "client_secret_basic" },
    });
    expect(await readMcpServerGrant(dataPlane, "missing", { secretBox })).toBeNull();

    const newExpiry = new Date("2026-11-22T11:00:00.000Z");
    const stored = await storeRefreshedMcpServerTokens(dataPlane, { serverId: server.id, previousCiphertext: grant!.tokensCiphertext!, tokens: { accessToken: "at_2", refreshToken: "rt_2", tokenType: "Bearer" }, expiresAt: newExpiry }, { secretBox });
    expect(stored).toBe(true);
    // A second refresh from the same starting point loses: the row moved on.
    const late = await storeRefreshedMcpServerTokens(dataPlane, { serverId: server.id, previousCiphertext: grant!.tokensCiphertext!, tokens: { accessToken: "at_3", tokenType: "Bearer" }, expiresAt: null }, { secretBox });
    expect(late).toBe(false);
    expect(await getMcpServerTokens(db, org.id, server.id, { secretBox })).toMatchObject({ accessToken: "at_2", refreshToken: "rt_2" });
    const row = await db.prisma.mcpServer.findUniqueOrThrow({ where: { id: server.id } });
    expect(row.tokensCiphertext).not.toContain("at_2");
    expect(row.tokensExpiresAt).toEqual(newExpiry);
    expect((await listMcpTokens(db, { organizationId: org.id, serverId: server.id })).find((token) => token.id === grantRecord.id)?.expiresAt).toEqual(newExpiry);
    expect((await loadControlPlaneSnapshot(dataPlane, { secretBox })).mcpServers.find((entry) => entry.id === server.id)).toMatchObject({ accessToken: "at_2", accessTokenExpiresAt: newExpiry });

    // Marking a failure against stale tokens does nothing; against the current ones it shows in the dashboard.
    expect(await markMcpServerAuthorizationFailed(dataPlane, { serverId: server.id, previousCiphertext: grant!.tokensCiphertext, message: "stale" })).toBe(false);
    expect(await markMcpServerAuthorizationFailed(dataPlane, { serverId: server.id, previousCiphertext: row.tokensCiphertext, message: "The refresh token was refused." })).toBe(true);
    expect(await getMcpServer(db, org.id, server.id)).toMatchObject({ status: "error", statusMessage: "The refresh token was refused.", hasTokens: true });
  });
});

describe("@gateway/db/data-plane", () => {
  it("opens, migrates, loads a snapshot and writes usage without loading Prisma", () => {
    const directory = mkdtempSync(path.join(tmpdir(), "gateway-data-plane-"));
    const distEntry = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../dist/data-plane.js");
    // A module hook that fails any import resolving into Prisma's packages or the generated clients.
    const hook = `export async function resolve(specifier, context, next) {
      const resolved = await next(specifier, context);
      if (/@prisma|\\/generated\\//.test(resolved.url)) throw new Error("Prisma was loaded: " + resolved.url);
      return resolved;
    }`;
    const script = `
      import { register } from "node:module";
      register("data:text/javascript,${encodeURIComponent(hook)}");
      const { openDataPlaneDatabase, loadControlPlaneSnapshot, createSecretBox, writeUsageBatch } = await import(${JSON.stringify(distEntry)});
      const db = openDataPlaneDatabase({ url: ${JSON.stringify(`file:${path.join(directory, "gateway.db")}`)} });
      await db.migrate();
      const secretBox = createSecretBox({ keys: [{ id: "k", key: Buffer.alloc(32, 1) }], activeKeyId: "k" });
      const snapshot = await loadControlPlaneSnapshot(db, { secretBox });
      await writeUsageBatch(db, []);
      await db.close();
      console.log(JSON.stringify({ version: snapshot.version, organizations: snapshot.organizations.length }));
    `;
    const child = spawnSync(process.execPath, ["--input-type=module", "-e", script], { encoding: "utf8" });
    rmSync(directory, { recursive: true, force: true });
    expect(child.stderr).toBe("");
    expect(JSON.parse(child.stdout.trim())).toEqual({ version: expect.stringMatching(/^\d+$/), organizations: 0 });
  });
});

describe("the SQLite statement runner", () => {
  it("waits for another connection's write lock without blocking the event loop, then writes", async () => {
    const directory = mkdtempSync(path.join(tmpdir(), "gateway-busy-"));
    const url = `file:${path.join(directory, "gateway.db")}`;
    const dataPlane = openDataPlaneDatabase({ url });
    const other = createClient({ url });
    try {
      await dataPlane.migrate();
      const before = Number(await readControlPlaneVersion(dataPlane));
      // Another connection (as another process would) holds the write lock for 300 ms.
      const holder = await other.transaction("write");
      await holder.execute("UPDATE control_plane_version SET version = version + 1 WHERE id = 1");
      let ticks = 0;
      const ticker = setInterval(() => (ticks += 1), 10);
      const started = Date.now();
      const write = dataPlane.runStatements([{ sql: 'UPDATE "control_plane_version" SET "version" = "version" + 1 WHERE "id" = ?', args: [1] }]);
      setTimeout(() => void holder.commit(), 300);
      await write;
      clearInterval(ticker);
      expect(Date.now() - started).toBeGreaterThanOrEqual(290);
      expect(ticks).toBeGreaterThan(10); // timers kept firing while the write waited
      expect(Number(await readControlPlaneVersion(dataPlane))).toBe(before + 2);
    } finally {
      other.close();
      await dataPlane.close();
      rmSync(directory, { recursive: true, force: true });
    }
  });

  it("rolls the whole batch back when one statement fails", async () => {
    const directory = mkdtempSync(path.join(tmpdir(), "gateway-rollback-"));
    const dataPlane = openDataPlaneDatabase({ url: `file:${path.join(directory, "gateway.db")}` });
    try {
      await dataPlane.migrate();
      const before = await readControlPlaneVersion(dataPlane);
      await expect(
        dataPlane.runStatements([
          { sql: 'UPDATE "control_plane_version" SET "version" = "version" + 1 WHERE "id" = ?', args: [1] },
          { sql: 'INSERT INTO "no_such_table" ("x") VALUES (?)', args: [1] },
        ]),
      ).rejects.toThrow(/no_such_table/);
      expect(await readControlPlaneVersion(dataPlane)).toBe(before);
      // The connection is usable afterwards.
      await dataPlane.runStatements([{ sql: 'UPDATE "control_plane_version" SET "version" = "version" + 1 WHERE "id" = ?', args: [1] }]);
      expect(Number(await readControlPlaneVersion(dataPlane))).toBe(Number(before) + 1);
    } finally {
      await dataPlane.close();
      rmSync(directory, { recursive: true, force: true });
    }
  });
});

import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GatewayError } from "@gateway/errors";
import {
  acceptInvitation,
  addTeamMember,
  appendUsageEvents,
  createApiKey,
  createConnection,
  createInvitation,
  createMembership,
  createOrganization,
  createPolicy,
  createProject,
  createRoute,
  createSecretBox,
  readUsageEventContent,
  createTeam,
  createUser,
  deleteOrganization,
  deleteProject,
  findApiKeyByHash,
  findUserByEmail,
  getConnection,
  createNotificationChannel,
  createTelemetryDestination,
  getNotificationChannelWithConfig,
  getTelemetryDestinationWithConfig,
  getConnectionCredential,
  reencryptStoredSecrets,
  hashApiKey,
  hashToken,
  listDailyUsage,
  listTeams,
  listUsageEvents,
  loadControlPlaneSnapshot,
  readControlPlaneVersion,
  revokeApiKey,
  touchApiKeysLastUsed,
  upsertBudgetByName,
  upsertConnectionByName,
  upsertRateLimit,
  upsertRouteByAlias,
  writeUsageBatch,
  type Database,
} from "../src/index.js";
import { databaseTargets, type FreshDatabase } from "./database-targets.js";
import { usageEvent } from "./usage-event-fixture.js";

const testKey = randomBytes(32);
const secretBox = createSecretBox({ keys: [{ id: "test", key: testKey }], activeKeyId: "test" });

const expectGatewayError = async (promise: Promise<unknown>, code: string) => {
  const error = await promise.then(
    () => null,
    (caught: unknown) => caught,
  );
  expect(GatewayError.isInstance(error), String(error)).toBe(true);
  expect((error as GatewayError).code).toBe(code);
};

describe.each(databaseTargets)("repositories on $provider", (target) => {
  let fresh: FreshDatabase;
  let db: Database;

  beforeAll(async () => {
    if (target.skip) return;
    fresh = await target.fresh();
    db = fresh.open();
    await db.migrate();
  });
  afterAll(async () => {
    if (target.skip) return;
    await db.close();
    await fresh.cleanup();
  });

  const organization = (slug = `org-${randomBytes(4).toString("hex")}`) => createOrganization(db, { name: slug, slug });

  it.skipIf(target.skip)("keeps emails unique case-insensitively", async () => {
    const user = await createUser(db, { email: "Ada@Example.com", name: "Ada" });
    expect(user.email).toBe("Ada@Example.com");
    await expectGatewayError(createUser(db, { email: "  ada@EXAMPLE.com " }), "conflict");
    expect((await findUserByEmail(db, "ADA@example.COM"))?.id).toBe(user.id);
  });

  it.skipIf(target.skip)("keeps key hashes unique, route aliases and connection names unique per organization", async () => {
    const [first, second] = [await organization(), await organization()];
    const project = await createProject(db, { organizationId: first.id, name: "p" });
    const { secret } = await createApiKey(db, { organizationId: first.id, projectId: project.id, name: "k" });
    await expectGatewayError(createApiKey(db, { organizationId: first.id, projectId: project.id, name: "again", secret }), "conflict");

    const route = { alias: "fast", strategy: "priority", targets: [{ model: "demo/demo/echo" }] };
    await createRoute(db, { organizationId: first.id, ...route });
    await expectGatewayError(createRoute(db, { organizationId: first.id, ...route }), "conflict");
    await createRoute(db, { organizationId: second.id, ...route });

    const connection = { name: "demo", kind: "demo" };
    await createConnection(db, { organizationId: first.id, ...connection }, { secretBox });
    await expectGatewayError(createConnection(db, { organizationId: first.id, ...connection }, { secretBox }), "conflict");
    await createConnection(db, { organizationId: second.id, ...connection }, { secretBox });
    await expectGatewayError(createConnection(db, { organizationId: first.id, name: "x", kind: "mystery" }, { secretBox }), "invalid_request");
  });

  it.skipIf(target.skip)("refuses to delete a project with active keys, deletes it once they are revoked", async () => {
    const org = await organization();
    const project = await createProject(db, { organizationId: org.id, name: "p" });
    const { apiKey } = await createApiKey(db, { organizationId: org.id, projectId: project.id, name: "k" });
    await expectGatewayError(deleteProject(db, org.id, project.id), "conflict");
    await revokeApiKey(db, { organizationId: org.id, id: apiKey.id });
    await deleteProject(db, org.id, project.id);
    expect(await db.prisma.project.findUnique({ where: { id: project.id } })).toBeNull();
    expect(await db.prisma.apiKey.findUnique({ where: { id: apiKey.id } })).toBeNull();
    await expectGatewayError(deleteProject(db, org.id, project.id), "not_found");
  });

  it.skipIf(target.skip)("cascades an organization's deletion to what it owns, keeping users, usage and audit", async () => {
    const org = await organization();
    const user = await createUser(db, { email: `${randomBytes(4).toString("hex")}@example.com` });
    await createMembership(db, { organizationId: org.id, userId: user.id, role: "admin" });
    const team = await createTeam(db, { organizationId: org.id, name: "core", defaultRole: "member" });
    await addTeamMember(db, { organizationId: org.id, teamId: team.id, userId: user.id });
    const project = await createProject(db, { organizationId: org.id, name: "p" });
    await createApiKey(db, { organizationId: org.id, projectId: project.id, teamId: team.id, name: "k" });
    await createConnection(db, { organizationId: org.id, name: "demo", kind: "demo" }, { secretBox });
    await createPolicy(db, { organizationId: org.id, scope: "organization", scopeId: org.id, allow: ["*"] });
    await appendUsageEvents(db, [usageEvent({ organizationId: org.id, projectId: project.id })]);

    await deleteOrganization(db, org.id);
    for (const count of [
      db.prisma.membership.count({ where: { organizationId: org.id } }),
      db.prisma.team.count({ where: { organizationId: org.id } }),
      db.prisma.teamMember.count({ where: { teamId: team.id } }),
      db.prisma.project.count({ where: { organizationId: org.id } }),
      db.prisma.apiKey.count({ where: { organizationId: org.id } }),
      db.prisma.connection.count({ where: { organizationId: org.id } }),
      db.prisma.policy.count({ where: { organizationId: org.id } }),
    ]) {
      expect(await count).toBe(0);
    }
    expect(await db.prisma.user.findUnique({ where: { id: user.id } })).not.toBeNull();
    expect(await db.prisma.usageEvent.count({ where: { organizationId: org.id } })).toBe(1);
  });

  it.skipIf(target.skip)("counts team members", async () => {
    const org = await organization();
    const team = await createTeam(db, { organizationId: org.id, name: "t", defaultRole: "viewer" });
    for (const index of [1, 2]) {
      const user = await createUser(db, { email: `m${index}-${randomBytes(4).toString("hex")}@example.com` });
      await createMembership(db, { organizationId: org.id, userId: user.id, role: "member" });
      await addTeamMember(db, { organizationId: org.id, teamId: team.id, userId: user.id });
    }
    expect((await listTeams(db, org.id)).map((row) => [row.name, row.memberCount])).toEqual([["t", 2]]);
  });

  it.skipIf(target.skip)("loads the snapshot: revoked keys excluded, credentials decrypted, JSON parsed", async () => {
    const org = await organization();
    const project = await createProject(db, { organizationId: org.id, name: "p", captureContent: true });
    const active = await createApiKey(db, { organizationId: org.id, projectId: project.id, name: "active" });
    const revoked = await createApiKey(db, { organizationId: org.id, projectId: project.id, name: "revoked" });
    await revokeApiKey(db, { organizationId: org.id, id: revoked.apiKey.id });
    await upsertConnectionByName(
      db,
      {
        organizationId: org.id,
        name: "openai",
        kind: "openai",
        baseUrl: "http://127.0.0.1:9/v1",
        credential: "sk-test-credential",
        models: ["openai/gpt-4o-mini"],
        upstreamModelNames: { "openai/gpt-4o-mini": "gpt-4o-mini" },
        prices: { "openai/gpt-4o-mini": { input: 0.15, output: 0.6 } },
      },
      { secretBox },
    );
    await upsertRouteByAlias(db, { organizationId: org.id, alias: "fast", strategy: "weighted", targets: [{ model: "openai/openai/gpt-4o-mini", weight: 3 }], affinity: { enabled: true, ttlSeconds: 60 }, retry: { maxAttempts: 2 } });
    await upsertBudgetByName(db, { organizationId: org.id, name: "monthly", scope: "project", scopeId: project.id, amountMicros: 5_000_000_000, period: "month", mode: "hard" });
    await upsertRateLimit(db, { organizationId: org.id, scope: "key", scopeId: active.apiKey.id, windowSeconds: 60, requestsPerWindow: 100 });

    const snapshot = await loadControlPlaneSnapshot(db, { secretBox });
    expect(snapshot.version).toMatch(/^\d+$/);
    const keys = snapshot.apiKeys.filter((key) => key.organizationId === org.id);
    expect(keys.map((key) => key.id)).toEqual([active.apiKey.id]);
    expect(keys[0]!.secretHash).toBe(hashApiKey(active.secret));
    const connection = snapshot.connections.find((entry) => entry.organizationId === org.id)!;
    expect(connection).toMatchObject({ name: "openai", kind: "openai", credential: "sk-test-credential", models: ["openai/gpt-4o-mini"], upstreamModelNames: { "openai/gpt-4o-mini": "gpt-4o-mini" }, enabled: true });
    expect(connection.prices["openai/gpt-4o-mini"]).toEqual({ input: 0.15, output: 0.6 });
    expect(snapshot.routes.find((route) => route.organizationId === org.id)).toMatchObject({ alias: "fast", strategy: "weighted", targets: [{ model: "openai/openai/gpt-4o-mini", weight: 3 }], affinity: { enabled: true, ttlSeconds: 60 }, retry: { maxAttempts: 2 } });
    expect(snapshot.budgets.find((budget) => budget.organizationId === org.id)).toMatchObject({ amountMicros: 5_000_000_000, period: "month", mode: "hard", scope: "project", scopeId: project.id });
    expect(snapshot.rateLimits.find((limit) => limit.organizationId === org.id)).toMatchObject({ scope: "key", windowSeconds: 60, requestsPerWindow: 100, tokensPerWindow: null });
    expect(snapshot.projects.find((entry) => entry.id === project.id)?.captureContent).toBe(true);
    // The dashboard view never carries the credential.
    expect(JSON.stringify(await getConnection(db, org.id, connection.id))).not.toContain("sk-test-credential");
    // Stored encrypted, not in clear.
    const stored = await db.prisma.connection.findUniqueOrThrow({ where: { id: connection.id } });
    expect(stored.credentialCiphertext).toMatch(/^v2\.test\./);
  });

  it.skipIf(target.skip)("binds each stored credential to its connection: a ciphertext copied to another row or organization does not decrypt", async () => {
    const org = await organization();
    const other = await organization();
    const victim = await createConnection(db, { organizationId: org.id, name: "victim", kind: "openai", credential: "sk-victim-credential" }, { secretBox });
    const mine = await createConnection(db, { organizationId: org.id, name: "mine", kind: "openai", credential: "sk-mine" }, { secretBox });
    const foreign = await createConnection(db, { organizationId: other.id, name: "foreign", kind: "openai", credential: "sk-foreign" }, { secretBox });
    const stolen = (await db.prisma.connection.findUniqueOrThrow({ where: { id: victim.id } })).credentialCiphertext;
    for (const target of [mine, foreign]) {
      await db.prisma.connection.update({ where: { id: target.id }, data: { credentialCiphertext: stolen } });
      await expect(getConnectionCredential(db, target.organizationId, target.id, { secretBox })).rejects.toThrow(/not written for this row and organization/);
      await expect(loadControlPlaneSnapshot(db, { secretBox })).rejects.toThrow(new RegExp(`connection "${target.name}" \\(${target.id}\\)`));
      await db.prisma.connection.update({ where: { id: target.id }, data: { credentialCiphertext: null } });
    }
    expect(await getConnectionCredential(db, org.id, victim.id, { secretBox })).toBe("sk-victim-credential");
  });

  it.skipIf(target.skip)("binds telemetry destination and notification channel configs to their row", async () => {
    const org = await organization();
    const destination = await createTelemetryDestination(db, { organizationId: org.id, name: "hook", kind: "webhook", config: { url: "https://a.example", secret: "whsec-a" } }, { secretBox });
    const other = await createTelemetryDestination(db, { organizationId: org.id, name: "other", kind: "webhook", config: { url: "https://b.example" } }, { secretBox });
    const channel = await createNotificationChannel(db, { organizationId: org.id, name: "ops", kind: "webhook", config: { url: "https://c.example", secret: "whsec-c" } }, { secretBox });
    expect((await getTelemetryDestinationWithConfig(db, org.id, destination.id, { secretBox }))?.config).toEqual({ url: "https://a.example", secret: "whsec-a" });
    expect((await getNotificationChannelWithConfig(db, org.id, channel.id, { secretBox }))?.config).toEqual({ url: "https://c.example", secret: "whsec-c" });
    const { configCiphertext } = await db.prisma.telemetryDestination.findUniqueOrThrow({ where: { id: destination.id } });
    expect(configCiphertext).toMatch(/^v2\.test\./);
    await db.prisma.telemetryDestination.update({ where: { id: other.id }, data: { configCiphertext } });
    await expect(getTelemetryDestinationWithConfig(db, org.id, other.id, { secretBox })).rejects.toThrow(/not written for this row and organization/);
    await db.prisma.notificationChannel.update({ where: { id: channel.id }, data: { configCiphertext } });
    await expect(getNotificationChannelWithConfig(db, org.id, channel.id, { secretBox })).rejects.toThrow(/not written for this row and organization/);
    await db.prisma.telemetryDestination.deleteMany({ where: { organizationId: org.id } });
    await db.prisma.notificationChannel.deleteMany({ where: { organizationId: org.id } });
  });

  it.skipIf(target.skip)("re-encrypts v1 and old-key credentials to v2 bound to their row, once", async () => {
    const oldKey = randomBytes(32);
    const before = createSecretBox({ keys: [{ id: "old", key: oldKey }], activeKeyId: "old" });
    // The test key stays active (other tests read with it); "old" is a rotated-out key.
    const after = createSecretBox({ keys: [{ id: "test", key: testKey }, { id: "old", key: oldKey }], activeKeyId: "test" });
    const org = await organization();
    const legacy = await createConnection(db, { organizationId: org.id, name: "legacy", kind: "openai" }, { secretBox: before });
    // As written before rows were bound: v1, additional data = header only.
    await db.prisma.connection.update({ where: { id: legacy.id }, data: { credentialCiphertext: before.encrypt("sk-legacy") } });
    const oldKeyBound = await createConnection(db, { organizationId: org.id, name: "rotated", kind: "openai", credential: "sk-rotated" }, { secretBox: before });
    const result = await reencryptStoredSecrets(db, after);
    expect(result.reencrypted).toBe(2);
    expect(await getConnectionCredential(db, org.id, oldKeyBound.id, { secretBox })).toBe("sk-rotated");
    const stored = (await db.prisma.connection.findUniqueOrThrow({ where: { id: legacy.id } })).credentialCiphertext!;
    expect(stored).toMatch(/^v2\.test\./);
    expect(await getConnectionCredential(db, org.id, legacy.id, { secretBox: after })).toBe("sk-legacy");
    expect((await reencryptStoredSecrets(db, after)).reencrypted).toBe(0);
  });

  it.skipIf(target.skip)("changes the control-plane version after a raw SQL revocation, not after a last-used update", async () => {
    const org = await organization();
    const project = await createProject(db, { organizationId: org.id, name: "p" });
    const { apiKey } = await createApiKey(db, { organizationId: org.id, projectId: project.id, name: "k" });
    const before = await readControlPlaneVersion(db);
    await touchApiKeysLastUsed(db, new Map([[apiKey.id, new Date()]]));
    expect(await readControlPlaneVersion(db)).toBe(before);
    const placeholder = db.provider === "postgresql" ? "$1" : "?";
    await db.prisma.$executeRawUnsafe(`UPDATE api_keys SET revoked_at = CURRENT_TIMESTAMP WHERE id = ${placeholder}`, apiKey.id);
    const after = await readControlPlaneVersion(db);
    expect(after).not.toBe(before);
    // The raw-driver read (used for polling) and the Prisma read agree on the same row.
    expect((await db.prisma.controlPlaneVersion.findUniqueOrThrow({ where: { id: 1 } })).version.toString()).toBe(after);
    const snapshot = await loadControlPlaneSnapshot(db, { secretBox });
    expect(snapshot.apiKeys.some((key) => key.id === apiKey.id)).toBe(false);
    expect((await findApiKeyByHash(db, apiKey.secretHash))?.revokedAt).not.toBeNull();
  });

  it.skipIf(target.skip)("inserts a batch of 10,000 usage events", async () => {
    const org = await organization();
    const events = Array.from({ length: 10_000 }, (_, index) => usageEvent({ organizationId: org.id, requestId: `bulk_${index}`, status: index % 10 === 0 ? 500 : 200 }));
    expect(await appendUsageEvents(db, events)).toBe(10_000);
    expect(await db.prisma.usageEvent.count({ where: { organizationId: org.id } })).toBe(10_000);
    expect(await db.prisma.usageEvent.count({ where: { organizationId: org.id, status: 500 } })).toBe(1_000);
    // Rows written on the raw driver read back through Prisma exactly.
    const sample = (await listUsageEvents(db, { organizationId: org.id, limit: 1, status: 500 })).data[0]!;
    const { id: _id, ...record } = sample;
    expect(record).toEqual(events.find((event) => event.requestId === sample.requestId));
  }, 60_000);

  it.skipIf(target.skip)("keeps daily rollups correct across batches, and pages usage events", async () => {
    const org = await organization();
    const other = { organizationId: org.id, projectId: "project-b", apiKeyId: "key-b" };
    const day1 = new Date("2026-03-01T23:59:59Z");
    const day2 = new Date("2026-03-02T00:00:01Z");
    const batchOne = [
      usageEvent({ organizationId: org.id, projectId: "project-a", apiKeyId: "key-a", occurredAt: day1 }),
      usageEvent({ organizationId: org.id, projectId: "project-a", apiKeyId: "key-a", occurredAt: day1, status: 429, errorCode: "gateway_rate_limit_exceeded", inputTokens: 0, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0, costMicros: 0 }),
      usageEvent({ ...other, occurredAt: day2 }),
    ];
    const batchTwo = [usageEvent({ organizationId: org.id, projectId: "project-a", apiKeyId: "key-a", occurredAt: day1, costMicros: 1_000 })];
    expect(await writeUsageBatch(db, batchOne)).toBe(3);
    expect(await writeUsageBatch(db, batchTwo)).toBe(1);
    const daily = await listDailyUsage(db, { organizationId: org.id });
    expect(daily).toEqual([
      { day: "2026-03-01", projectId: "project-a", apiKeyId: "key-a", model: "demo/demo/echo", requestCount: 3, errorCount: 1, inputTokens: 20, outputTokens: 10, cacheReadTokens: 2, cacheWriteTokens: 4, costMicros: 1_123 },
      { day: "2026-03-02", projectId: "project-b", apiKeyId: "key-b", model: "demo/demo/echo", requestCount: 1, errorCount: 0, inputTokens: 10, outputTokens: 5, cacheReadTokens: 1, cacheWriteTokens: 2, costMicros: 123 },
    ]);
    const byProject = await listDailyUsage(db, { organizationId: org.id, groupBy: ["project"], fromDay: "2026-03-02" });
    expect(byProject.map((row) => [row.day, row.projectId, row.requestCount])).toEqual([["2026-03-02", "project-b", 1]]);

    const firstPage = await listUsageEvents(db, { organizationId: org.id, limit: 3 });
    expect(firstPage.data).toHaveLength(3);
    expect(firstPage.data[0]!.occurredAt.toISOString()).toBe(day2.toISOString());
    const secondPage = await listUsageEvents(db, { organizationId: org.id, limit: 3, cursor: firstPage.nextCursor! });
    expect(secondPage.data).toHaveLength(1);
    expect(secondPage.nextCursor).toBeNull();
    expect(new Set([...firstPage.data, ...secondPage.data].map((event) => event.id)).size).toBe(4);
    const errors = await listUsageEvents(db, { organizationId: org.id, status: "error" });
    expect(errors.data.map((event) => event.errorCode)).toEqual(["gateway_rate_limit_exceeded"]);
  });

  it.skipIf(target.skip)("never stores content for decision events", async () => {
    const org = await organization();
    const secretBox = createSecretBox({ keys: [{ id: "test", key: randomBytes(32) }], activeKeyId: "test" });
    const decision = usageEvent({ organizationId: org.id, endpoint: "decisions", occurredAt: new Date(), content: { secret: "state" } });
    const chat = usageEvent({ organizationId: org.id, endpoint: "chat_completions", occurredAt: new Date(), content: { request: { messages: [{ role: "user", content: "hi" }] }, response: null } });
    await writeUsageBatch(db, [decision, chat], { secretBox });
    const events = (await listUsageEvents(db, { organizationId: org.id })).data;
    expect(events.map((event) => event.content)).toEqual([null, null]);
    expect(await readUsageEventContent(db, secretBox, { organizationId: org.id, requestId: decision.requestId })).toBeNull();
    expect((await readUsageEventContent(db, secretBox, { organizationId: org.id, requestId: chat.requestId }))?.request).toEqual({ messages: [{ role: "user", content: "hi" }] });
  });

  it.skipIf(target.skip)("accepts an invitation once: membership and projects added, second use refused", async () => {
    const org = await organization();
    const project = await createProject(db, { organizationId: org.id, name: "p" });
    const token = randomBytes(16).toString("hex");
    const invitation = await createInvitation(db, { organizationId: org.id, email: "New@Example.org", role: "member", projectIds: [project.id], tokenHash: hashToken(token), expiresAt: new Date(Date.now() + 60_000) });
    expect(invitation).toMatchObject({ email: "New@Example.org", projectIds: [project.id], deliveryStatus: null });
    const user = await createUser(db, { email: "new@example.org" });
    await acceptInvitation(db, { tokenHash: hashToken(token), userId: user.id });
    expect((await db.prisma.membership.findFirst({ where: { organizationId: org.id, userId: user.id } }))?.role).toBe("member");
    expect(await db.prisma.projectMember.count({ where: { projectId: project.id, userId: user.id } })).toBe(1);
    await expectGatewayError(acceptInvitation(db, { tokenHash: hashToken(token), userId: user.id }), "conflict");
  });
});

import { randomBytes } from "node:crypto";
import { cpSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GatewayError } from "@gateway/errors";
import {
  acceptInvitation,
  addTeamMember,
  beginMcpServerOAuth,
  claimMcpServerOAuthState,
  clearMcpServerTokens,
  completeMcpServerOAuth,
  createApiKey,
  createInvitation,
  createLoginSession,
  createMcpServer,
  createMcpToken,
  createMembership,
  createOrganization,
  createProject,
  createSecretBox,
  createTeam,
  createTelemetryDestination,
  createUser,
  decodeTimeCursor,
  defaultMigrationsDirectory,
  deleteMembership,
  deleteUser,
  encodeTimeCursor,
  findActiveLoginSession,
  getMcpServer,
  getMcpServerClientSecret,
  getMcpServerTokens,
  getMcpToken,
  getOrganizationMember,
  getTeamMember,
  hashToken,
  listApiKeysPage,
  listInvitations,
  listMcpTokens,
  listOrganizationMembers,
  listTeamRolesOfUser,
  listTelemetryDestinationsWithConfig,
  migrateDatabase,
  recordInvitationDelivery,
  renewInvitation,
  resolveDatabaseUrl,
  revokeApiKey,
  revokeInvitation,
  revokeMcpToken,
  setProjectMembershipsOfUser,
  updateApiKey,
  updateMcpServer,
  updateMembershipRole,
  type Database,
  type ListInvitationsOptions,
} from "../src/index.js";
import { databaseTargets, type FreshDatabase } from "./database-targets.js";

const secretBox = createSecretBox({ keys: [{ id: "test", key: randomBytes(32) }], activeKeyId: "test" });

async function gatewayErrorOf(promise: Promise<unknown>): Promise<GatewayError> {
  const error = await promise.then(
    () => null,
    (caught: unknown) => caught,
  );
  expect(GatewayError.isInstance(error), String(error)).toBe(true);
  return error as GatewayError;
}

const unique = () => randomBytes(4).toString("hex");

describe.each(databaseTargets)("dashboard repositories on $provider", (target) => {
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

  const organization = () => createOrganization(db, { name: "Org", slug: `org-${unique()}` });
  const user = (name = "User") => createUser(db, { email: `${name.toLowerCase()}-${unique()}@example.com`, name, passwordHash: "scrypt$hash" });

  it.skipIf(target.skip)("keeps the last owner, revokes sessions of a removed member, and answers members with ordered projects", async () => {
    const org = await organization();
    const [owner, admin] = [await user("Owner"), await user("Admin")];
    await createMembership(db, { organizationId: org.id, userId: owner.id, role: "owner" });
    await createMembership(db, { organizationId: org.id, userId: admin.id, role: "admin" });
    expect((await gatewayErrorOf(updateMembershipRole(db, { organizationId: org.id, userId: owner.id, role: "admin" }))).code).toBe("conflict");
    expect((await gatewayErrorOf(deleteMembership(db, org.id, owner.id))).code).toBe("conflict");

    const [first, second] = [await createProject(db, { organizationId: org.id, name: "first" }), await createProject(db, { organizationId: org.id, name: "second" })];
    await setProjectMembershipsOfUser(db, { organizationId: org.id, userId: admin.id, projectIds: [second.id, first.id] });
    const member = await getOrganizationMember(db, org.id, admin.id);
    expect(member).toMatchObject({ role: "admin", projectIds: [second.id, first.id], user: { id: admin.id, name: "Admin" } });
    expect(member?.user).not.toHaveProperty("passwordHash");
    expect((await listOrganizationMembers(db, org.id)).map((entry) => entry.userId)).toEqual([owner.id, admin.id]);
    expect((await gatewayErrorOf(setProjectMembershipsOfUser(db, { organizationId: org.id, userId: admin.id, projectIds: ["nope"] }))).param).toBe("project_ids");

    // A second owner makes the first one removable; a removed member's sessions stop working but stay.
    await updateMembershipRole(db, { organizationId: org.id, userId: admin.id, role: "owner" });
    const sessionHash = hashToken(`session-${unique()}`);
    await createLoginSession(db, { sessionHash, userId: owner.id, organizationId: org.id, expiresAt: new Date(Date.now() + 60_000) });
    const active = await findActiveLoginSession(db, sessionHash);
    expect(active).toMatchObject({ userId: owner.id, user: { email: owner.email }, organization: { id: org.id, authenticationRequired: "password" } });
    expect(active?.user).not.toHaveProperty("passwordHash");
    await deleteMembership(db, org.id, owner.id);
    expect(await getOrganizationMember(db, org.id, owner.id)).toBeNull();
    expect(await findActiveLoginSession(db, sessionHash)).toBeNull();
    expect(await db.prisma.loginSession.count({ where: { sessionHash } })).toBe(1);
  });

  it.skipIf(target.skip)("answers team roles of a user and single team members", async () => {
    const org = await organization();
    const person = await user();
    await createMembership(db, { organizationId: org.id, userId: person.id, role: "viewer" });
    const [defaults, own] = [
      await createTeam(db, { organizationId: org.id, name: "defaults", defaultRole: "member" }),
      await createTeam(db, { organizationId: org.id, name: "own", defaultRole: "viewer" }),
    ];
    await addTeamMember(db, { organizationId: org.id, teamId: defaults.id, userId: person.id });
    await addTeamMember(db, { organizationId: org.id, teamId: own.id, userId: person.id, role: "admin" });
    expect(await listTeamRolesOfUser(db, person.id, org.id)).toEqual([
      { organizationId: org.id, teamId: defaults.id, role: "member" },
      { organizationId: org.id, teamId: own.id, role: "admin" },
    ]);
    expect(await listTeamRolesOfUser(db, person.id, (await organization()).id)).toEqual([]);
    expect(await getTeamMember(db, { organizationId: org.id, teamId: own.id, userId: person.id })).toMatchObject({ role: "admin", user: { id: person.id, email: person.email } });
    expect(await getTeamMember(db, { organizationId: (await organization()).id, teamId: own.id, userId: person.id })).toBeNull();
  });

  it.skipIf(target.skip)("pages keys by status, refuses changes to revoked keys and tells whether a revocation was new", async () => {
    const org = await organization();
    const project = await createProject(db, { organizationId: org.id, name: "p" });
    const now = new Date();
    const active = (await createApiKey(db, { organizationId: org.id, projectId: project.id, name: "active" })).apiKey;
    const expired = (await createApiKey(db, { organizationId: org.id, projectId: project.id, name: "expired", expiresAt: new Date(now.getTime() - 1000) })).apiKey;
    const revoked = (await createApiKey(db, { organizationId: org.id, projectId: project.id, name: "revoked" })).apiKey;
    const first = await revokeApiKey(db, { organizationId: org.id, id: revoked.id, now });
    expect(first.revoked).toBe(true);
    const again = await revokeApiKey(db, { organizationId: org.id, id: revoked.id, now: new Date(now.getTime() + 5000) });
    expect(again).toMatchObject({ revoked: false, apiKey: { revokedAt: first.apiKey.revokedAt } });
    expect((await gatewayErrorOf(updateApiKey(db, org.id, revoked.id, { name: "renamed" }))).code).toBe("conflict");
    expect((await gatewayErrorOf(updateApiKey(db, org.id, "missing", { name: "renamed" }))).code).toBe("not_found");

    for (const [status, id] of [["active", active.id], ["expired", expired.id], ["revoked", revoked.id]] as const) {
      expect((await listApiKeysPage(db, { organizationId: org.id, status, now })).data.map((key) => key.id)).toEqual([id]);
    }
    const page = await listApiKeysPage(db, { organizationId: org.id, limit: 2 });
    expect(page.data).toHaveLength(2);
    const rest = await listApiKeysPage(db, { organizationId: org.id, limit: 2, cursor: page.nextCursor! });
    expect(rest.nextCursor).toBeNull();
    expect(new Set([...page.data, ...rest.data].map((key) => key.id))).toEqual(new Set([active.id, expired.id, revoked.id]));
  });

  it.skipIf(target.skip)("refuses invitations for members and duplicates, filters them, and never changes an existing member's role on acceptance", async () => {
    const org = await organization();
    const member = await user("Member");
    await createMembership(db, { organizationId: org.id, userId: member.id, role: "owner" });
    const expiresAt = new Date(Date.now() + 60_000);
    const invite = (email: string, role = "viewer") => createInvitation(db, { organizationId: org.id, email, role, tokenHash: hashToken(`token-${unique()}`), expiresAt });
    expect(await gatewayErrorOf(invite(member.email.toUpperCase()))).toMatchObject({ code: "conflict", param: "email" });
    const pending = await invite("new@example.com");
    expect(pending).toMatchObject({ status: "pending", deliveryStatus: null });
    const duplicate = await gatewayErrorOf(invite("NEW@example.com"));
    expect(duplicate).toMatchObject({ code: "conflict", details: { invitation_id: pending.id } });

    // A failure keeps its reason until an email is accepted; then the reason is cleared.
    const unsent = await recordInvitationDelivery(db, org.id, pending.id, { status: "failed", failure: "no_mail_transport" });
    expect(unsent).toMatchObject({ deliveryStatus: "failed", deliveryFailure: "no_mail_transport", emailSentAt: null, sendCount: 1 });
    const sent = await recordInvitationDelivery(db, org.id, pending.id, { status: "sent" });
    expect(sent).toMatchObject({ deliveryStatus: "sent", deliveryFailure: null, sendCount: 2 });
    const failedInvitation = await invite("failed@example.com", "admin");
    expect(await recordInvitationDelivery(db, org.id, failedInvitation.id, { status: "failed" })).toMatchObject({ deliveryFailure: "smtp_failed" });
    const ids = async (options: Omit<ListInvitationsOptions, "organizationId">) =>
      (await listInvitations(db, { organizationId: org.id, ...options })).data.map((invitation) => invitation.id);
    expect(await ids({ deliveryStatus: "sent" })).toEqual([pending.id]);
    expect(await ids({ deliveryStatus: "failed", role: "admin" })).toEqual([failedInvitation.id]);
    const later = new Date(expiresAt.getTime() + 1000);
    expect(await ids({ deliveryStatus: "expired", now: later })).toEqual([failedInvitation.id, pending.id]);
    await revokeInvitation(db, org.id, failedInvitation.id);
    // A revoked invitation stays "revoked" after its expiry and keeps its delivery outcome.
    expect((await listInvitations(db, { organizationId: org.id, state: "revoked", now: later })).data).toEqual([
      expect.objectContaining({ id: failedInvitation.id, status: "revoked", deliveryStatus: "failed" }),
    ]);
    expect((await gatewayErrorOf(renewInvitation(db, org.id, failedInvitation.id, { tokenHash: hashToken(unique()), expiresAt }))).code).toBe("conflict");

    // The member was made owner after being invited again elsewhere: accepting keeps "owner".
    const other = await organization();
    const token = `token-${unique()}`;
    await createInvitation(db, { organizationId: other.id, email: member.email, role: "viewer", tokenHash: hashToken(token), expiresAt });
    await createMembership(db, { organizationId: other.id, userId: member.id, role: "owner" });
    const accepted = await acceptInvitation(db, { tokenHash: hashToken(token), userId: member.id });
    expect(accepted.status).toBe("accepted");
    expect((await getOrganizationMember(db, other.id, member.id))?.role).toBe("owner");
  });

  it.skipIf(target.skip)("runs the MCP OAuth lifecycle: pending user column, one active grant per server, tokens without a gateway hash", async () => {
    const org = await organization();
    const person = await user();
    const created = await createMcpServer(
      db,
      { organizationId: org.id, name: "tickets", url: "https://mcp.example.com/mcp", transport: "streamable_http", authKind: "oauth", oauthClient: { clientId: "pre", clientSecret: "client-secret" } },
      { secretBox },
    );
    expect(created).toMatchObject({ status: "disconnected", oauthClientRegistration: { client_id: "pre", preregistered: true } });
    expect(await getMcpServerClientSecret(db, org.id, created.id, { secretBox })).toBe("client-secret");
    const bearer = await createMcpServer(db, { organizationId: org.id, name: "static", url: "https://s.example.com", transport: "sse", authKind: "bearer", bearerToken: "static-token" }, { secretBox });
    expect(bearer).toMatchObject({ status: "connected", hasTokens: true });
    expect(await getMcpServerTokens(db, org.id, bearer.id, { secretBox })).toMatchObject({ accessToken: "static-token", tokenType: "Bearer" });
    expect((await gatewayErrorOf(updateMcpServer(db, org.id, created.id, { bearerToken: "x" }, { secretBox }))).param).toBe("bearer_token");

    const begin = (state: string) =>
      beginMcpServerOAuth(
        db,
        { organizationId: org.id, id: created.id, stateHash: hashToken(state), codeVerifier: "verifier", redirectUri: "https://dash/cb", expiresAt: new Date(Date.now() + 60_000), metadata: { issuer: "https://as" }, clientRegistration: { client_id: "pre", preregistered: true }, pendingUserId: person.id },
        { secretBox },
      );
    await begin("state-1");
    const pendingRow = await db.prisma.mcpServer.findUniqueOrThrow({ where: { id: created.id } });
    expect(pendingRow.pendingUserId).toBe(person.id);
    expect(pendingRow.oauthMetadata).toEqual({ issuer: "https://as" });
    const claimed = await claimMcpServerOAuthState(db, hashToken("state-1"), { secretBox });
    expect(claimed).toMatchObject({ codeVerifier: "verifier", redirectUri: "https://dash/cb", clientSecret: "client-secret", pendingUserId: person.id });
    expect(await claimMcpServerOAuthState(db, hashToken("state-1"), { secretBox })).toBeNull();
    expect((await db.prisma.mcpServer.findUniqueOrThrow({ where: { id: created.id } })).pendingUserId).toBeNull();

    const complete = (accessToken: string) =>
      completeMcpServerOAuth(
        db,
        { organizationId: org.id, id: created.id, tokens: { accessToken, refreshToken: "rt", tokenType: "Bearer", scope: "a b" }, expiresAt: null, userId: person.id, grant: { name: "tickets (OAuth)", prefix: accessToken.slice(0, 6), scopes: ["a", "b"] } },
        { secretBox },
      );
    const firstGrant = await complete("at_first");
    const secondGrant = await complete("at_second");
    expect(secondGrant.server).toMatchObject({ status: "connected", hasTokens: true });
    expect(await getMcpToken(db, org.id, firstGrant.token.id)).toMatchObject({ revokedByUserId: person.id });
    expect((await listMcpTokens(db, { organizationId: org.id, serverId: created.id })).map((token) => token.id)).toEqual([secondGrant.token.id]);
    expect((await listMcpTokens(db, { organizationId: org.id, serverId: created.id, includeRevoked: true })).length).toBe(2);
    expect(await db.prisma.mcpToken.count({ where: { serverId: created.id, tokenHash: null } })).toBe(2);
    // Stored with the OAuth token response's field names, encrypted.
    const stored = await db.prisma.mcpServer.findUniqueOrThrow({ where: { id: created.id } });
    expect(stored.tokensCiphertext).not.toContain("at_second");
    expect(JSON.parse(secretBox.decrypt(stored.tokensCiphertext!))).toEqual({ access_token: "at_second", refresh_token: "rt", token_type: "Bearer", scope: "a b" });
    expect(await getMcpServerTokens(db, org.id, created.id, { secretBox })).toEqual({ accessToken: "at_second", refreshToken: "rt", tokenType: "Bearer", scope: "a b" });

    const revoked = await revokeMcpToken(db, { organizationId: org.id, id: secondGrant.token.id, revokedByUserId: person.id });
    expect(revoked.revoked).toBe(true);
    expect((await revokeMcpToken(db, { organizationId: org.id, id: secondGrant.token.id })).revoked).toBe(false);
    expect(await clearMcpServerTokens(db, org.id, created.id)).toMatchObject({ status: "disconnected", hasTokens: false });

    // A new URL forgets discovery and grants but keeps the pre-registered client.
    const grant = await complete("at_third");
    await begin("state-2");
    const moved = await updateMcpServer(db, org.id, created.id, { url: "https://moved.example.com/mcp" }, { secretBox, actorUserId: person.id });
    expect(moved).toMatchObject({ status: "disconnected", hasTokens: false, oauthMetadata: {}, oauthClientRegistration: { client_id: "pre" } });
    expect((await getMcpToken(db, org.id, grant.token.id))?.revokedAt).not.toBeNull();
    expect(await claimMcpServerOAuthState(db, hashToken("state-2"), { secretBox })).toBeNull();

    // Deleting the user who started a flow leaves the flow without a user.
    await begin("state-3");
    await deleteUser(db, person.id);
    expect((await claimMcpServerOAuthState(db, hashToken("state-3"), { secretBox }))?.pendingUserId).toBeNull();
    expect(await getMcpServer(db, org.id, created.id)).not.toBeNull();
    // Gateway-issued tokens act as an active key of the organization and keep unique hashes.
    const project = await createProject(db, { organizationId: org.id, name: "mcp" });
    const { apiKey } = await createApiKey(db, { organizationId: org.id, projectId: project.id, name: "mcp key" });
    expect((await gatewayErrorOf(createMcpToken(db, { organizationId: org.id, name: "keyless", prefix: "gmt_ab", tokenHash: hashToken("keyless") }))).param).toBe("api_key_id");
    expect((await gatewayErrorOf(createMcpToken(db, { organizationId: org.id, apiKeyId: "missing", name: "ghost", prefix: "gmt_ab", tokenHash: hashToken("ghost") }))).param).toBe("api_key_id");
    const issued = await createMcpToken(db, { organizationId: org.id, apiKeyId: apiKey.id, name: "cli", prefix: "gmt_ab", tokenHash: hashToken("mcp-secret") });
    expect(issued).toMatchObject({ apiKeyId: apiKey.id, issued: true });
    expect((await gatewayErrorOf(createMcpToken(db, { organizationId: org.id, apiKeyId: apiKey.id, name: "again", prefix: "gmt_ab", tokenHash: hashToken("mcp-secret") }))).code).toBe("conflict");
  });

  it.skipIf(target.skip)("lists destinations with their decrypted configuration, oldest first", async () => {
    const org = await organization();
    await createTelemetryDestination(db, { organizationId: org.id, name: "b", kind: "webhook", config: { kind: "webhook", url: "https://b", secret: "s" } }, { secretBox });
    await createTelemetryDestination(db, { organizationId: org.id, name: "a", kind: "otlp_http", config: { kind: "otlp_http", endpoint: "https://a" } }, { secretBox });
    expect((await listTelemetryDestinationsWithConfig(db, org.id, { secretBox })).map((entry) => [entry.name, entry.config])).toEqual([
      ["b", { kind: "webhook", url: "https://b", secret: "s" }],
      ["a", { kind: "otlp_http", endpoint: "https://a" }],
    ]);
  });
});

describe("cursors", () => {
  it("round-trip and refuse anything else with 400 naming the parameter", () => {
    const cursor = { at: new Date("2026-01-02T03:04:05.678Z"), id: "abc" };
    expect(decodeTimeCursor(encodeTimeCursor(cursor))).toEqual(cursor);
    for (const bad of ["%%%", Buffer.from("[123,\"x\"]").toString("base64url"), Buffer.from("[\"nope\",\"x\"]").toString("base64url")]) {
      expect(() => decodeTimeCursor(bad, "cursor")).toThrow(expect.objectContaining({ code: "invalid_request", param: "cursor" }));
    }
  });
});

describe.each(databaseTargets)("the MCP pending-user migration on $provider", (target) => {
  it.skipIf(target.skip)("moves oauth_metadata.pending_user_id of existing rows into the new column", async () => {
    const fresh = await target.fresh();
    const directory = mkdtempSync(path.join(tmpdir(), "gateway-migrations-"));
    try {
      const providerDirectory = path.join(defaultMigrationsDirectory(), target.provider);
      const migrations = readdirSync(providerDirectory).filter((entry) => /^\d{14}_/.test(entry)).sort();
      const index = migrations.findIndex((entry) => entry.endsWith("_mcp_pending_user_and_grant_token_hash"));
      expect(index).toBeGreaterThan(0);
      for (const entry of migrations.slice(0, index)) cpSync(path.join(providerDirectory, entry), path.join(directory, target.provider, entry), { recursive: true });
      const resolved = resolveDatabaseUrl(fresh.url);
      const options = { url: resolved.url, provider: target.provider, schema: resolved.schema ?? undefined };
      await migrateDatabase({ ...options, migrationsDirectory: directory });

      const db = fresh.open();
      try {
        const placeholder = (position: number) => (target.provider === "postgresql" ? `$${position}` : "?");
        const json = target.provider === "postgresql" ? `${placeholder(5)}::jsonb` : placeholder(5);
        await db.prisma.$executeRawUnsafe(`INSERT INTO organizations (id, name, slug, updated_at) VALUES (${placeholder(1)}, 'o', ${placeholder(2)}, CURRENT_TIMESTAMP)`, "org1", `o-${unique()}`);
        await db.prisma.$executeRawUnsafe(`INSERT INTO users (id, email, email_normalized, updated_at) VALUES (${placeholder(1)}, 'u@example.com', 'u@example.com', CURRENT_TIMESTAMP)`, "user1");
        const insertServer = `INSERT INTO mcp_servers (id, organization_id, name, url, transport, auth_kind, updated_at, oauth_metadata) VALUES (${placeholder(1)}, ${placeholder(2)}, ${placeholder(3)}, ${placeholder(4)}, 'sse', 'oauth', CURRENT_TIMESTAMP, ${json})`;
        await db.prisma.$executeRawUnsafe(insertServer, "server1", "org1", "one", "https://one", JSON.stringify({ issuer: "https://as", pending_user_id: "user1" }));
        await db.prisma.$executeRawUnsafe(insertServer, "server2", "org1", "two", "https://two", JSON.stringify({ issuer: "https://as", pending_user_id: "deleted-user" }));
        await migrateDatabase(options);
        const rows = await db.prisma.mcpServer.findMany({ orderBy: { id: "asc" }, select: { id: true, pendingUserId: true, oauthMetadata: true } });
        expect(rows).toEqual([
          { id: "server1", pendingUserId: "user1", oauthMetadata: { issuer: "https://as" } },
          { id: "server2", pendingUserId: null, oauthMetadata: { issuer: "https://as" } },
        ]);
      } finally {
        await db.close();
      }
    } finally {
      rmSync(directory, { recursive: true, force: true });
      await fresh.cleanup();
    }
  });
});

import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  addTeamMember,
  appendAuditEvent,
  createApiKey,
  createLoginSession,
  createMcpToken,
  createMembership,
  createOrganization,
  createProject,
  createTeam,
  createUser,
  findSessionPrincipal,
  getMcpToken,
  hashToken,
  listAuditEvents,
  listUserMemberships,
  revokeApiKey,
  revokeLoginSession,
  setProjectMembershipsOfUser,
  touchSessionLastSeen,
  updateUser,
  type Database,
} from "../src/index.js";
import { databaseTargets, type FreshDatabase } from "./database-targets.js";

const unique = () => randomBytes(4).toString("hex");

describe.each(databaseTargets)("dashboard hot paths on the raw driver on $provider", (target) => {
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

  it.skipIf(target.skip)("resolves a session with its organization, membership role, team roles and assigned projects in one read", async () => {
    const organization = await createOrganization(db, { name: "Org", slug: `org-${unique()}` });
    const other = await createOrganization(db, { name: "Other", slug: `other-${unique()}` });
    const user = await createUser(db, { email: `member-${unique()}@example.com`, name: "Member", passwordHash: "scrypt$hash" });
    await createMembership(db, { organizationId: organization.id, userId: user.id, role: "viewer" });
    await createMembership(db, { organizationId: other.id, userId: user.id, role: "admin" });
    const team = await createTeam(db, { organizationId: organization.id, name: "ops", defaultRole: "member" });
    await addTeamMember(db, { organizationId: organization.id, teamId: team.id, userId: user.id });
    const [first, second] = [await createProject(db, { organizationId: organization.id, name: "first" }), await createProject(db, { organizationId: organization.id, name: "second" })];
    await setProjectMembershipsOfUser(db, { organizationId: organization.id, userId: user.id, projectIds: [second.id, first.id] });
    const now = new Date();
    const sessionHash = hashToken(`cookie-${unique()}`);
    await createLoginSession(db, { sessionHash, userId: user.id, organizationId: organization.id, expiresAt: new Date(now.getTime() + 60_000), lastSeenAt: new Date(now.getTime() - 120_000) });

    const principal = await findSessionPrincipal(db, sessionHash, now);
    expect(principal).toMatchObject({
      userId: user.id,
      email: user.email,
      name: "Member",
      organization: { id: organization.id, name: "Org", slug: organization.slug },
      membershipRole: "viewer",
      teamRoles: ["member"],
      projectIds: [second.id, first.id],
    });
    expect(principal!.expiresAt.getTime()).toBe(now.getTime() + 60_000);

    await touchSessionLastSeen(db, principal!.sessionId, now);
    expect((await findSessionPrincipal(db, sessionHash, now))!.lastSeenAt.getTime()).toBe(now.getTime());
    expect((await listUserMemberships(db, user.id)).map((membership) => [membership.organization.id, membership.membershipRole, membership.teamRoles])).toEqual([
      [organization.id, "viewer", ["member"]],
      [other.id, "admin", []],
    ]);

    // Expired at `now`, revoked, or a disabled account: no principal.
    expect(await findSessionPrincipal(db, sessionHash, new Date(now.getTime() + 60_000))).toBeNull();
    expect(await findSessionPrincipal(db, hashToken("unknown"), now)).toBeNull();
    await updateUser(db, user.id, { disabledAt: now });
    expect(await findSessionPrincipal(db, sessionHash, now)).toBeNull();
    await updateUser(db, user.id, { disabledAt: null });
    await revokeLoginSession(db, sessionHash, now);
    expect(await findSessionPrincipal(db, sessionHash, now)).toBeNull();
  });

  it.skipIf(target.skip)("revokes a key with its MCP tokens, tells the row before, and appends audit rows on the raw driver", async () => {
    const organization = await createOrganization(db, { name: "Org", slug: `org-${unique()}` });
    const project = await createProject(db, { organizationId: organization.id, name: "p" });
    const { apiKey } = await createApiKey(db, { organizationId: organization.id, projectId: project.id, name: "key", defaultMetadata: { team: "a" } });
    const token = await createMcpToken(db, { organizationId: organization.id, apiKeyId: apiKey.id, name: "cli", prefix: "gmt_ab", tokenHash: hashToken(`mcp-${unique()}`) });
    const now = new Date();

    const first = await revokeApiKey(db, { organizationId: organization.id, id: apiKey.id, now });
    expect(first).toMatchObject({ revoked: true, apiKey: { id: apiKey.id, revokedAt: now, defaultMetadata: { team: "a" } }, before: { id: apiKey.id, revokedAt: null } });
    expect(first.before!.updatedAt.getTime()).toBe(apiKey.updatedAt.getTime());
    expect((await getMcpToken(db, organization.id, token.id))?.revokedAt?.getTime()).toBe(now.getTime());
    const again = await revokeApiKey(db, { organizationId: organization.id, id: apiKey.id, now: new Date(now.getTime() + 5000) });
    expect(again).toMatchObject({ revoked: false, before: null, apiKey: { revokedAt: now } });
    await expect(revokeApiKey(db, { organizationId: other(organization.id), id: apiKey.id })).rejects.toMatchObject({ code: "not_found" });

    const audit = await appendAuditEvent(db, { organizationId: organization.id, actorKind: "user", action: "api_key.revoked", targetType: "api_key", targetId: apiKey.id, before: { status: "active" }, after: { status: "revoked" }, occurredAt: now });
    const listed = await listAuditEvents(db, { organizationId: organization.id, targetId: apiKey.id });
    expect(listed.data).toEqual([expect.objectContaining({ id: audit.id, action: "api_key.revoked", before: { status: "active" }, after: { status: "revoked" }, occurredAt: now })]);
  });
});

const other = (organizationId: string) => `${organizationId}-other`;

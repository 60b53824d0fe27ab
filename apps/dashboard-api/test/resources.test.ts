import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { connectionCredentialBinding, hashApiKey } from "@gateway/db";
import { databaseTargets } from "./support/test-database.js";
import { startTestDashboard, type TestDashboard } from "./support/test-dashboard.js";

describe.each(databaseTargets)("resources (%s)", (target) => {
  let harness: TestDashboard;
  let organizationId: string;
  let owner: string;
  let ownerId: string;
  let projectId: string;

  beforeAll(async () => {
    harness = await startTestDashboard({ target });
    organizationId = (await harness.createOrganization()).id;
    const member = await harness.createMember({ organizationId, role: "owner" });
    ownerId = member.userId;
    owner = await harness.login(member.email, member.password);
    const project = await harness.request("POST", "/api/projects", { cookie: owner, body: { name: "Main" } });
    projectId = project.body.id;
  });
  afterAll(async () => harness.close());

  const call = (method: string, path: string, body?: unknown) => harness.request(method, path, { cookie: owner, body });

  /** create -> get -> list -> update -> delete -> get 404, for one resource. */
  async function exerciseCrud(options: { path: string; create: unknown; update: Record<string, unknown>; object: string; check?: (created: any) => void }) {
    const created = await call("POST", options.path, options.create);
    expect(created.status, created.text).toBe(201);
    expect(created.body.object).toBe(options.object);
    options.check?.(created.body);
    const id = created.body.id as string;
    const fetched = await call("GET", `${options.path}/${id}`);
    expect(fetched.status).toBe(200);
    expect(fetched.body).toEqual(created.body);
    const listed = await call("GET", options.path);
    expect(listed.body.object).toBe("list");
    expect(listed.body.data.map((item: { id: string }) => item.id)).toContain(id);
    const updated = await call("PATCH", `${options.path}/${id}`, options.update);
    expect(updated.status, updated.text).toBe(200);
    expect(updated.body).toMatchObject(options.update);
    const invalid = await call("PATCH", `${options.path}/${id}`, {});
    expect(invalid.status).toBe(400);
    expect(invalid.body.error.code).toBe("invalid_request");
    const deleted = await call("DELETE", `${options.path}/${id}`);
    expect(deleted.status).toBe(200);
    expect(deleted.body).toEqual({ id, object: options.object, deleted: true });
    expect((await call("GET", `${options.path}/${id}`)).status).toBe(404);
    const audit = await call("GET", `/api/audit-events?target_id=${id}`);
    expect(audit.body.data.map((event: { action: string }) => event.action).sort()).toEqual(
      expect.arrayContaining([expect.stringMatching(/\.created$/), expect.stringMatching(/\.updated$/), expect.stringMatching(/\.deleted$/)]),
    );
  }

  it("projects: CRUD, unique names, validation", async () => {
    await exerciseCrud({ path: "/api/projects", create: { name: "Support", capture_content: true }, update: { description: "tickets" }, object: "project" });
    const duplicate = await call("POST", "/api/projects", { name: "Main" });
    expect(duplicate.status).toBe(409);
    expect(duplicate.body.error.code).toBe("conflict");
    const invalid = await call("POST", "/api/projects", { name: "" });
    expect(invalid.status).toBe(400);
    expect(invalid.body.error.details.param).toBe("name");
  });

  it("projects: activity and content retention and the content cap, with defaults and bounds", async () => {
    const created = await call("POST", "/api/projects", { name: "Retained", capture_content: true, content_max_bytes: 8192 });
    expect(created.status, created.text).toBe(201);
    expect(created.body).toMatchObject({ activity_retention_days: 30, content_retention_days: 7, content_max_bytes: 8192 });
    const updated = await call("PATCH", `/api/projects/${created.body.id}`, { activity_retention_days: 90, content_retention_days: 14 });
    expect(updated.body).toMatchObject({ activity_retention_days: 90, content_retention_days: 14, content_max_bytes: 8192 });
    const row = await harness.database.prisma.project.findUniqueOrThrow({ where: { id: created.body.id } });
    expect([row.activityRetentionDays, row.contentRetentionDays, row.contentMaxBytes]).toEqual([90, 14, 8192]);
    for (const body of [{ activity_retention_days: 0 }, { content_retention_days: 3651 }, { content_max_bytes: 100 }]) {
      const refused = await call("PATCH", `/api/projects/${created.body.id}`, body);
      expect(refused.status).toBe(400);
      expect(refused.body.error.details.param).toBe(Object.keys(body)[0]);
    }
  });

  it("connections: CRUD without ever showing the credential, stored encrypted", async () => {
    await exerciseCrud({
      path: "/api/connections",
      create: { name: "openai-main", kind: "openai", credential: "sk-secret-value", models: ["openai/gpt-4o-mini"], prices: { "openai/gpt-4o-mini": { input: 0.15, output: 0.6 } } },
      update: { enabled: false },
      object: "connection",
      check: (created) => {
        expect(created).toMatchObject({ has_credential: true, kind: "openai", prices: { "openai/gpt-4o-mini": { input: 0.15, output: 0.6 } } });
        expect(JSON.stringify(created)).not.toContain("sk-secret-value");
      },
    });
    const created = await call("POST", "/api/connections", { name: "anthropic", kind: "anthropic", credential: "sk-ant-secret" });
    const row = await harness.database.prisma.connection.findUniqueOrThrow({ where: { id: created.body.id } });
    expect(row.credentialCiphertext).not.toContain("sk-ant-secret");
    expect(harness.dashboard.services.secrets.decrypt(row.credentialCiphertext!, connectionCredentialBinding(organizationId, created.body.id))).toBe("sk-ant-secret");
    expect((await call("POST", "/api/connections", { name: "bad/name", kind: "demo" })).status).toBe(400);
    expect((await call("POST", "/api/connections", { name: "native", kind: "systemone" })).status).toBe(400);
  });

  it("connections: a credential ciphertext copied to another connection does not decrypt there, and the test action says so (no 500)", async () => {
    const source = await call("POST", "/api/connections", { name: "copied-from", kind: "openai", base_url: "http://127.0.0.1:9/v1", credential: "sk-copied-secret" });
    const target = await call("POST", "/api/connections", { name: "copied-to", kind: "openai", base_url: "http://127.0.0.1:9/v1" });
    const { credentialCiphertext } = await harness.database.prisma.connection.findUniqueOrThrow({ where: { id: source.body.id } });
    await harness.database.prisma.connection.update({ where: { id: target.body.id }, data: { credentialCiphertext } });
    const tested = await call("POST", `/api/connections/${target.body.id}/test`);
    expect(tested.status).toBe(200);
    expect(tested.body).toMatchObject({ ok: false, message: expect.stringMatching(/cannot be decrypted for this connection/) });
    expect(JSON.stringify(tested.body)).not.toContain("sk-copied-secret");
    await call("DELETE", `/api/connections/${target.body.id}`);
    await call("DELETE", `/api/connections/${source.body.id}`);
  });

  it("connections: upstream settings (logprobs, default max_tokens, timeouts) with the stored bounds", async () => {
    const created = await call("POST", "/api/connections", {
      name: "reasoning",
      kind: "openai",
      logprobs: false,
      timeouts: { first_byte_ms: 120_000, idle_ms: 45_000, max_duration_ms: 0 },
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ logprobs: false, default_max_tokens: null, timeouts: { first_byte_ms: 120_000, idle_ms: 45_000, max_duration_ms: 0 } });
    const row = await harness.database.prisma.connection.findUniqueOrThrow({ where: { id: created.body.id } });
    expect(row.timeouts).toEqual({ firstByteMs: 120_000, idleMs: 45_000, maxDurationMs: 0 });

    const updated = await call("PATCH", `/api/connections/${created.body.id}`, { timeouts: {}, default_max_tokens: 1024 });
    expect(updated.status).toBe(200);
    expect(updated.body).toMatchObject({ timeouts: {}, default_max_tokens: 1024, logprobs: false });

    for (const timeouts of [{ idle_ms: 0 }, { idle_ms: 86_400_001 }, { read_ms: 5 }, { max_duration_ms: -1 }]) {
      const refused = await call("PATCH", `/api/connections/${created.body.id}`, { timeouts });
      expect(refused.status, JSON.stringify(timeouts)).toBe(400);
    }
    expect((await call("PATCH", `/api/connections/${created.body.id}`, { default_max_tokens: 0 })).status).toBe(400);
  });

  it("connections: provider settings are checked against the kind's settings schema, a bad field named in the 400", async () => {
    const created = await call("POST", "/api/connections", { name: "plain-settings", kind: "openai" });
    expect(created.status, created.text).toBe(201);
    expect(created.body.settings).toEqual({});
    const refused = await call("POST", "/api/connections", { name: "odd-settings", kind: "anthropic", settings: { region: "us-east-1" } });
    expect(refused.status).toBe(400);
    expect(refused.body.error).toMatchObject({ code: "invalid_request", details: { param: "settings.region" } });
    expect(refused.body.error.message).toMatch(/no setting 'region'/);
    const patched = await call("PATCH", `/api/connections/${created.body.id}`, { settings: { deployments: {} } });
    expect(patched.status).toBe(400);
    expect(patched.body.error.details.param).toBe("settings.deployments");
    expect((await call("PATCH", `/api/connections/${created.body.id}`, { settings: "region=x" })).status).toBe(400);
    expect((await call("GET", `/api/connections/${created.body.id}`)).body.settings).toEqual({});
    const kinds = await call("GET", "/api/connection-kinds");
    expect(kinds.status).toBe(200);
    expect(kinds.body.data.find((kind: { kind: string }) => kind.kind === "openai")).toMatchObject({
      label: "OpenAI-compatible",
      network: true,
      settings_schema: { type: "object", additionalProperties: false },
    });
  });

  it("policies: CRUD with validated guardrails and scope ids of this organization", async () => {
    await exerciseCrud({
      path: "/api/policies",
      create: { scope: "organization", scope_id: organizationId, allow: ["demo/*"], guardrails: { rules: [{ type: "secrets", action: "block" }] } },
      update: { deny: ["demo/demo/forbidden"] },
      object: "policy",
    });
    const badGuardrails = await call("POST", "/api/policies", { scope: "project", scope_id: projectId, guardrails: { rules: [{ type: "nope" }] } });
    expect(badGuardrails.status).toBe(400);
    const foreignScope = await call("POST", "/api/policies", { scope: "project", scope_id: "someone-elses-project" });
    expect(foreignScope.status).toBe(400);
    expect(foreignScope.body.error.details.param).toBe("scope_id");
  });

  it("routes: CRUD; targets must name connections of the organization", async () => {
    await call("POST", "/api/connections", { name: "demo", kind: "demo", models: ["demo/echo"] });
    await exerciseCrud({ path: "/api/routes", create: { alias: "chat", targets: [{ model: "demo/demo/echo" }] }, update: { strategy: "weighted" }, object: "route" });
    const unknownProvider = await call("POST", "/api/routes", { alias: "x", targets: [{ model: "nowhere/a/b" }] });
    expect(unknownProvider.status).toBe(400);
    expect(unknownProvider.body.error.details.param).toBe("targets[0].model");
    expect((await call("POST", "/api/routes", { alias: "has/slash", targets: [{ model: "demo/demo/echo" }] })).status).toBe(400);
  });

  it("budgets and rate limits: CRUD with validation", async () => {
    await exerciseCrud({
      path: "/api/budgets",
      create: { name: "monthly", scope: "project", scope_id: projectId, amount_micros: 25_000_000, period: "month", mode: "hard" },
      update: { amount_micros: 50_000_000 },
      object: "budget",
      check: (created) => expect(created.thresholds).toEqual([0.5, 0.8, 1]),
    });
    expect((await call("POST", "/api/budgets", { name: "b", scope: "project", scope_id: projectId, amount_micros: -1, period: "month", mode: "hard" })).status).toBe(400);
    await exerciseCrud({
      path: "/api/rate-limits",
      create: { scope: "project", scope_id: projectId, window_seconds: 60, requests_per_window: 100 },
      update: { tokens_per_window: 10_000 },
      object: "rate_limit",
    });
    const empty = await call("POST", "/api/rate-limits", { scope: "project", scope_id: projectId });
    expect(empty.status).toBe(400);
  });

  it("teams: organization.team with member_count, and membership changes", async () => {
    const team = await call("POST", "/api/teams", { name: "Platform", default_role: "member" });
    expect(team.status).toBe(201);
    expect(team.body).toEqual({
      id: expect.any(String),
      name: "Platform",
      default_role: "member",
      member_count: 0,
      created_at: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/),
      updated_at: expect.any(String),
      object: "organization.team",
    });
    const viewer = await harness.createMember({ organizationId, role: "viewer" });
    const added = await call("PUT", `/api/teams/${team.body.id}/members/${viewer.userId}`, {});
    expect(added.status).toBe(201);
    expect(added.body).toMatchObject({ user_id: viewer.userId, role: "member", role_is_default: true });
    expect((await call("GET", `/api/teams/${team.body.id}`)).body.member_count).toBe(1);
    // Team membership lifts the viewer to the team's role.
    const viewerCookie = await harness.login(viewer.email, viewer.password);
    const session = await harness.request("GET", "/v1/auth/session", { cookie: viewerCookie });
    expect(session.body.user.role).toBe("member");
    expect(session.body.permissions).toContain("playground:use");
    const changed = await call("PUT", `/api/teams/${team.body.id}/members/${viewer.userId}`, { role: "admin" });
    expect(changed.status).toBe(200);
    const members = await call("GET", `/api/teams/${team.body.id}/members`);
    expect(members.body.data).toHaveLength(1);
    expect((await call("DELETE", `/api/teams/${team.body.id}/members/${viewer.userId}`)).status).toBe(200);
    expect((await call("GET", `/api/teams/${team.body.id}`)).body.member_count).toBe(0);
    expect((await call("PUT", `/api/teams/${team.body.id}/members/not-a-member`, {})).status).toBe(404);
    await exerciseCrud({ path: "/api/teams", create: { name: "Data", default_role: "viewer" }, update: { name: "Data science" }, object: "organization.team" });
  });

  it("api keys: default metadata is set on create, replaced on update, and bounded like X-Gateway-Metadata", async () => {
    const created = await call("POST", "/api/api-keys", { name: "tagged", project_id: projectId, default_metadata: { team: "search", env: "prod" } });
    expect(created.status, created.text).toBe(201);
    expect(created.body.default_metadata).toEqual({ team: "search", env: "prod" });
    const updated = await call("PATCH", `/api/api-keys/${created.body.id}`, { default_metadata: { team: "ranking" } });
    expect(updated.body).toMatchObject({ name: "tagged", default_metadata: { team: "ranking" } });
    expect((await call("GET", `/api/api-keys/${created.body.id}`)).body.default_metadata).toEqual({ team: "ranking" });
    const plain = await call("POST", "/api/api-keys", { name: "plain", project_id: projectId });
    expect(plain.body.default_metadata).toEqual({});
    const tooMany = Object.fromEntries(Array.from({ length: 17 }, (_, index) => [`k${index}`, "v"]));
    for (const default_metadata of [{ "bad key": "v" }, { k: 1 }, { k: "v".repeat(257) }, tooMany]) {
      const refused = await call("PATCH", `/api/api-keys/${created.body.id}`, { default_metadata });
      expect(refused.status).toBe(400);
      expect(refused.body.error.code).toBe("invalid_request");
    }
    await call("DELETE", `/api/api-keys/${created.body.id}`);
    await call("DELETE", `/api/api-keys/${plain.body.id}`);
  });

  it("api keys: the secret is shown once, revocation is permanent and keeps the record", async () => {
    const created = await call("POST", "/api/api-keys", { name: "prod", project_id: projectId });
    expect(created.status).toBe(201);
    expect(created.headers.get("cache-control")).toBe("no-store");
    const secret = created.body.secret as string;
    expect(secret).toMatch(/^gak_/);
    expect(created.body).toMatchObject({ name: "prod", project_id: projectId, status: "active", prefix: secret.slice(0, created.body.prefix.length), last_four: secret.slice(-4), object: "api_key" });
    const row = await harness.database.prisma.apiKey.findUniqueOrThrow({ where: { id: created.body.id } });
    expect(row.secretHash).toBe(hashApiKey(secret));
    const fetched = await call("GET", `/api/api-keys/${created.body.id}`);
    expect(fetched.body.secret).toBeUndefined();
    expect(JSON.stringify((await call("GET", "/api/api-keys")).body)).not.toContain(secret);

    const revoked = await call("DELETE", `/api/api-keys/${created.body.id}`);
    expect(revoked.status).toBe(200);
    expect(revoked.body).toMatchObject({ id: created.body.id, status: "revoked", revoked_by_user_id: ownerId, object: "api_key" });
    expect(revoked.body.revoked_at).not.toBeNull();
    // The record stays as evidence, listed as revoked; revoking again changes nothing.
    const again = await call("DELETE", `/api/api-keys/${created.body.id}`);
    expect(again.status).toBe(200);
    expect(again.body.revoked_at).toBe(revoked.body.revoked_at);
    const listed = await call("GET", "/api/api-keys?status=revoked");
    expect(listed.body.data.map((key: { id: string }) => key.id)).toContain(created.body.id);
    expect((await call("PATCH", `/api/api-keys/${created.body.id}`, { name: "again" })).status).toBe(409);
    const audit = await call("GET", `/api/audit-events?target_id=${created.body.id}&action=api_key.revoked`);
    expect(audit.body.data).toHaveLength(1);
    expect(audit.body.data[0].after.status).toBe("revoked");
    // A project with active keys cannot be deleted; one whose keys are revoked can.
    const other = await call("POST", "/api/projects", { name: "short-lived" });
    const key = await call("POST", "/api/api-keys", { name: "k", project_id: other.body.id });
    expect((await call("DELETE", `/api/projects/${other.body.id}`)).status).toBe(409);
    await call("DELETE", `/api/api-keys/${key.body.id}`);
    expect((await call("DELETE", `/api/projects/${other.body.id}`)).status).toBe(200);
  });

  it("api keys: members manage keys of their own projects only; lists paginate with a cursor", async () => {
    const member = await harness.createMember({ organizationId, role: "member" });
    const memberCookie = await harness.login(member.email, member.password);
    const refused = await harness.request("POST", "/api/api-keys", { cookie: memberCookie, body: { name: "mine", project_id: projectId } });
    expect(refused.status).toBe(403);
    await call("PATCH", `/api/members/${member.userId}`, { project_ids: [projectId] });
    const allowed = await harness.request("POST", "/api/api-keys", { cookie: memberCookie, body: { name: "mine", project_id: projectId } });
    expect(allowed.status).toBe(201);

    for (let index = 0; index < 4; index += 1) await call("POST", "/api/api-keys", { name: `page-${index}`, project_id: projectId });
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const page: { body: { data: { id: string }[]; has_more: boolean; next_cursor: string | null } } = await call("GET", `/api/api-keys?limit=2${cursor ? `&cursor=${cursor}` : ""}`);
      expect(page.body.data.length).toBeLessThanOrEqual(2);
      seen.push(...page.body.data.map((item) => item.id));
      cursor = page.body.has_more ? page.body.next_cursor : null;
    } while (cursor);
    const all = await call("GET", "/api/api-keys?limit=100");
    expect(seen).toEqual(all.body.data.map((item: { id: string }) => item.id));
    expect(new Set(seen).size).toBe(seen.length);
    expect((await call("GET", "/api/api-keys?cursor=garbage")).status).toBe(400);
  });

  it("members and organization: role changes keep an owner", async () => {
    const members = await call("GET", "/api/members");
    expect(members.body.data.find((item: { id: string }) => item.id === ownerId)).toMatchObject({ role: "owner", object: "organization.user" });
    const demoteLastOwner = await call("PATCH", `/api/members/${ownerId}`, { role: "admin" });
    expect(demoteLastOwner.status).toBe(409);
    const renamed = await call("PATCH", "/api/organization", { name: "Renamed Inc." });
    expect(renamed.body).toMatchObject({ name: "Renamed Inc.", authentication_required: "password", object: "organization" });
  });
});

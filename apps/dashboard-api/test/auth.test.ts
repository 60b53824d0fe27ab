import { request as httpRequest } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { hashToken } from "@gateway/db";
import { authSessionSchema } from "../src/auth/session-object.js";
import { permissionsByRole } from "../src/auth/role-permissions.js";
import { databaseTargets } from "./support/test-database.js";
import { startTestDashboard, type TestDashboard } from "./support/test-dashboard.js";

describe.each(databaseTargets)("sessions (%s)", (target) => {
  let harness: TestDashboard;
  let organization: { id: string; name: string; slug: string };
  let admin: { userId: string; email: string; password: string };

  beforeAll(async () => {
    harness = await startTestDashboard({
      target,
      settings: { trustProxy: "loopback" },
      dependencies: { throttle: { accountAddressFailures: 3, addressFailures: 50, accountSlowdownAfter: 3, accountDelayMs: 1, accountMaxDelayMs: 5, loginWindowMs: 60_000 } },
    });
    organization = await harness.createOrganization({ name: "Acme" });
    admin = await harness.createMember({ organizationId: organization.id, role: "admin", name: "Ada" });
  });
  afterAll(async () => harness.close());

  it("logs in: answers the auth.session object and sets a hardened cookie matching expires_at", async () => {
    const response = await harness.request("POST", "/v1/auth/login", { body: { email: admin.email.toUpperCase(), password: admin.password }, origin: null });
    expect(response.status).toBe(200);
    expect(response.headers.get("x-request-id")).toMatch(/^req_/);
    const session = authSessionSchema.parse(response.body);
    expect(session.object).toBe("auth.session");
    expect(session.person).toEqual({ id: admin.userId, email: admin.email, name: "Ada" });
    expect(session.organization).toEqual({ id: organization.id, name: "Acme", slug: organization.slug, object: "organization" });
    expect(session.user).toMatchObject({ id: admin.userId, organization_id: organization.id, role: "admin", role_label: "Administrator", project_ids: [], all_projects: true, object: "organization.user" });
    expect(session.permissions).toEqual([...permissionsByRole.admin]);
    expect(session.organizations).toEqual([{ id: organization.id, name: "Acme", slug: organization.slug, user_id: admin.userId, role: "admin", authentication_required: "password" }]);
    expect(session.account).toEqual({ organization: session.organization, user: session.user, permissions: session.permissions, expires_at: session.expires_at });

    const cookie = response.headers.get("set-cookie")!;
    const [pair, ...attributes] = cookie.split("; ");
    expect(pair).toMatch(/^gateway_session=[A-Za-z0-9_-]{32,}$/);
    expect(attributes).toEqual(expect.arrayContaining(["Path=/", "HttpOnly", "Secure", "SameSite=Lax"]));
    const expires = attributes.find((attribute) => attribute.startsWith("Expires="))!.slice("Expires=".length);
    expect(new Date(expires).toUTCString()).toBe(new Date(session.expires_at).toUTCString());
    const maxAge = Number(attributes.find((attribute) => attribute.startsWith("Max-Age="))!.slice("Max-Age=".length));
    expect(Math.abs(Date.now() + maxAge * 1000 - Date.parse(session.expires_at))).toBeLessThan(5000);

    // Only the hash of the cookie value is stored.
    const value = pair!.slice("gateway_session=".length);
    const stored = await harness.database.prisma.loginSession.findMany({ where: { userId: admin.userId } });
    expect(stored.some((row) => row.sessionHash === value)).toBe(false);
    expect(stored.some((row) => row.sessionHash === hashToken(value))).toBe(true);
  });

  it("owners and admins act on every project without the session listing them; members only on their assignments", async () => {
    const adminCookie = await harness.login(admin.email, admin.password);
    const create = async (name: string) => (await harness.request("POST", "/api/projects", { cookie: adminCookie, body: { name } })).body.id as string;
    const [assigned, other] = [await create("assigned"), await create("other")];
    const adminSession = await harness.request("GET", "/v1/auth/session", { cookie: adminCookie });
    expect(adminSession.body.user).toMatchObject({ project_ids: [], all_projects: true });
    for (const projectId of [assigned, other]) {
      expect((await harness.request("POST", "/api/api-keys", { cookie: adminCookie, body: { name: "admin key", project_id: projectId } })).status).toBe(201);
    }

    const member = await harness.createMember({ organizationId: organization.id, role: "member" });
    expect((await harness.request("PATCH", `/api/members/${member.userId}`, { cookie: adminCookie, body: { project_ids: [assigned] } })).status).toBe(200);
    const memberCookie = await harness.login(member.email, member.password);
    const memberSession = await harness.request("GET", "/v1/auth/session", { cookie: memberCookie });
    expect(memberSession.body.user).toMatchObject({ project_ids: [assigned], all_projects: false });
    expect((await harness.request("POST", "/api/api-keys", { cookie: memberCookie, body: { name: "mine", project_id: assigned } })).status).toBe(201);
    const refused = await harness.request("POST", "/api/api-keys", { cookie: memberCookie, body: { name: "not mine", project_id: other } });
    expect(refused.status).toBe(403);
  }, 30_000);

  it("answers the session with the cookie and 401 without or after logout", async () => {
    const cookie = await harness.login(admin.email, admin.password);
    const session = await harness.request("GET", "/v1/auth/session", { cookie });
    expect(session.status).toBe(200);
    expect(session.body.user.id).toBe(admin.userId);

    const anonymous = await harness.request("GET", "/v1/auth/session");
    expect(anonymous.status).toBe(401);
    expect(anonymous.body).toEqual({ error: { code: "unauthenticated", message: expect.any(String), details: {} } });
    expect(anonymous.headers.get("x-request-id")).toMatch(/^req_/);

    const logout = await harness.request("POST", "/v1/auth/logout", { cookie });
    expect(logout.status).toBe(204);
    expect(logout.headers.get("set-cookie")).toMatch(/^gateway_session=; Path=\/; .*Max-Age=0/);
    expect((await harness.request("GET", "/v1/auth/session", { cookie })).status).toBe(401);
    expect((await harness.request("GET", "/api/projects", { cookie })).status).toBe(401);
  });

  it("answers wrong passwords and unknown emails identically", async () => {
    const wrong = await harness.request("POST", "/v1/auth/login", { body: { email: admin.email, password: "not the password" }, origin: null, headers: { "x-forwarded-for": "1" } });
    const unknown = await harness.request("POST", "/v1/auth/login", { body: { email: "nobody@example.com", password: "not the password" }, origin: null });
    expect(wrong.status).toBe(401);
    expect(unknown.status).toBe(401);
    expect(wrong.body).toEqual(unknown.body);
    expect(wrong.body.error.code).toBe("invalid_credentials");
    expect([...wrong.headers.keys()].filter((name) => name !== "x-request-id" && name !== "date")).toEqual(
      [...unknown.headers.keys()].filter((name) => name !== "x-request-id" && name !== "date"),
    );
  });

  it("throttles repeated failures per (account, address), with Retry-After, even for the right password from that address", async () => {
    const victim = await harness.createMember({ organizationId: organization.id, role: "viewer" });
    const from = { "x-forwarded-for": "203.0.113.20" };
    for (let attempt = 0; attempt < 3; attempt += 1) {
      const failure = await harness.request("POST", "/v1/auth/login", { body: { email: victim.email, password: "guess" }, origin: null, headers: from });
      expect(failure.status).toBe(401);
    }
    const blocked = await harness.request("POST", "/v1/auth/login", { body: { email: victim.email, password: victim.password }, origin: null, headers: from });
    expect(blocked.status).toBe(429);
    expect(blocked.body.error.code).toBe("too_many_attempts");
    expect(Number(blocked.headers.get("retry-after"))).toBeGreaterThan(0);
    // Unknown accounts are throttled the same way (no account enumeration through throttling).
    for (let attempt = 0; attempt < 3; attempt += 1) await harness.request("POST", "/v1/auth/login", { body: { email: "ghost@example.com", password: "guess" }, origin: null, headers: from });
    expect((await harness.request("POST", "/v1/auth/login", { body: { email: "ghost@example.com", password: "guess" }, origin: null, headers: from })).status).toBe(429);
  });

  it("never locks the owner out: failures from other addresses slow the account down, the right password still logs in", async () => {
    const owner = await harness.createMember({ organizationId: organization.id, role: "owner" });
    // An attacker spreads guesses over addresses, each at its (account, address) limit.
    for (let address = 1; address <= 4; address += 1) {
      for (let attempt = 0; attempt < 4; attempt += 1) {
        await harness.request("POST", "/v1/auth/login", { body: { email: owner.email, password: "guess" }, origin: null, headers: { "x-forwarded-for": `198.51.100.${address}` } });
      }
    }
    const attacker = await harness.request("POST", "/v1/auth/login", { body: { email: owner.email, password: owner.password }, origin: null, headers: { "x-forwarded-for": "198.51.100.1" } });
    expect(attacker.status).toBe(429);
    const ownerLogin = await harness.request("POST", "/v1/auth/login", { body: { email: owner.email, password: owner.password }, origin: null, headers: { "x-forwarded-for": "192.0.2.50" } });
    expect(ownerLogin.status).toBe(200);
    expect(ownerLogin.headers.get("set-cookie")).toMatch(/^gateway_session=/);
  });

  it("uses the socket address unless DASHBOARD_TRUST_PROXY is set: X-Forwarded-For cannot dodge the limit", async () => {
    const direct = await startTestDashboard({ target, dependencies: { throttle: { accountAddressFailures: 2, addressFailures: 50, loginWindowMs: 60_000 } } });
    try {
      const org = await direct.createOrganization();
      const member = await direct.createMember({ organizationId: org.id, role: "member" });
      for (let attempt = 0; attempt < 2; attempt += 1) {
        await direct.request("POST", "/v1/auth/login", { body: { email: member.email, password: "guess" }, origin: null, headers: { "x-forwarded-for": `203.0.113.${attempt}` } });
      }
      const blocked = await direct.request("POST", "/v1/auth/login", { body: { email: member.email, password: "guess" }, origin: null, headers: { "x-forwarded-for": "203.0.113.99" } });
      expect(blocked.status).toBe(429);
    } finally {
      await direct.close();
    }
  });

  it("throttles repeated failures per client address across accounts", async () => {
    const throttled = await startTestDashboard({ target, dependencies: { throttle: { accountAddressFailures: 100, addressFailures: 4, loginWindowMs: 60_000 } } });
    try {
      const org = await throttled.createOrganization();
      const member = await throttled.createMember({ organizationId: org.id, role: "member" });
      for (let attempt = 0; attempt < 4; attempt += 1) {
        await throttled.request("POST", "/v1/auth/login", { body: { email: `someone${attempt}@example.com`, password: "guess" }, origin: null });
      }
      const blocked = await throttled.request("POST", "/v1/auth/login", { body: { email: member.email, password: member.password }, origin: null });
      expect(blocked.status).toBe(429);
      expect(blocked.headers.get("retry-after")).toMatch(/^\d+$/);
    } finally {
      await throttled.close();
    }
  });

  it("asks accounts in several organizations to pick one, and logs into the chosen one", async () => {
    const second = await harness.createOrganization({ name: "Beta" });
    const person = await harness.createMember({ organizationId: organization.id, role: "member" });
    await harness.createMember({ organizationId: second.id, role: "owner", email: person.email });
    const ambiguous = await harness.request("POST", "/v1/auth/login", { body: { email: person.email, password: person.password }, origin: null });
    expect(ambiguous.status).toBe(409);
    expect(ambiguous.body.error.code).toBe("organization_selection_required");
    expect(ambiguous.body.error.details.organizations.map((entry: { id: string }) => entry.id).sort()).toEqual([organization.id, second.id].sort());
    expect(ambiguous.headers.get("set-cookie")).toBeNull();

    const chosen = await harness.request("POST", "/v1/auth/login", { body: { email: person.email, password: person.password, organization_id: second.id }, origin: null });
    expect(chosen.status).toBe(200);
    expect(chosen.body.organization.id).toBe(second.id);
    expect(chosen.body.user.role).toBe("owner");
    expect(chosen.body.organizations).toHaveLength(2);
  });

  it("refuses password login for an organization that requires SSO", async () => {
    const sso = await harness.createOrganization({ authenticationRequired: "sso" });
    const member = await harness.createMember({ organizationId: sso.id, role: "member" });
    const response = await harness.request("POST", "/v1/auth/login", { body: { email: member.email, password: member.password }, origin: null });
    expect(response.status).toBe(403);
    expect(response.body.error.code).toBe("sso_required");
    expect(response.headers.get("set-cookie")).toBeNull();
  });

  it("refuses to require SSO while it is not configured, so that nobody is locked out", async () => {
    const locked = await harness.createOrganization({ name: "Would lock" });
    const owner = await harness.createMember({ organizationId: locked.id, role: "owner" });
    const cookie = await harness.login(owner.email, owner.password);
    const refused = await harness.request("PATCH", "/api/organization", { cookie, body: { name: "Still open", authentication_required: "sso" } });
    expect(refused.status).toBe(400);
    expect(refused.headers.get("x-request-id")).toMatch(/^req_/);
    expect(refused.body.error).toMatchObject({ code: "invalid_request", details: { param: "authentication_required" } });
    expect(refused.body.error.message).toMatch(/single sign-on is not configured/i);
    // Nothing changed (not even the name sent with it), and a fresh password sign-in still works.
    expect((await harness.request("GET", "/api/organization", { cookie })).body).toMatchObject({ name: "Would lock", authentication_required: "password" });
    const again = await harness.request("POST", "/v1/auth/login", { body: { email: owner.email, password: owner.password }, origin: null });
    expect(again.status).toBe(200);
    // Password stays settable.
    expect((await harness.request("PATCH", "/api/organization", { cookie, body: { authentication_required: "password" } })).status).toBe(200);

    // An organization that already requires SSO (stored before this rule) keeps it through other
    // changes, and a session signed in before may switch it back to passwords.
    await harness.database.prisma.organization.update({ where: { id: locked.id }, data: { authenticationRequired: "sso" } });
    const renamed = await harness.request("PATCH", "/api/organization", { cookie, body: { name: "Renamed", authentication_required: "sso" } });
    expect(renamed.status).toBe(200);
    expect(renamed.body).toMatchObject({ name: "Renamed", authentication_required: "sso" });
    const unlocked = await harness.request("PATCH", "/api/organization", { cookie, body: { authentication_required: "password" } });
    expect(unlocked.body).toMatchObject({ authentication_required: "password" });
  });

  it("validates the login body and refuses cross-site login forms", async () => {
    const invalid = await harness.request("POST", "/v1/auth/login", { body: { email: "" }, origin: null });
    expect(invalid.status).toBe(400);
    expect(invalid.body.error.code).toBe("invalid_request");
    const malformed = await fetch(`${harness.url}/v1/auth/login`, { method: "POST", headers: { "content-type": "application/json" }, body: "{not json" });
    expect(malformed.status).toBe(400);
    expect(((await malformed.json()) as { error: { code: string } }).error.code).toBe("invalid_request");
    const crossSite = await harness.request("POST", "/v1/auth/login", { body: { email: admin.email, password: admin.password }, origin: "https://evil.example" });
    expect(crossSite.status).toBe(403);
    expect(crossSite.body.error.code).toBe("origin_rejected");
  });

  it("answers an unknown path with the dashboard error body", async () => {
    const response = await harness.request("GET", "/api/nothing-here");
    expect(response.status).toBe(404);
    expect(response.body).toEqual({ error: { code: "not_found", message: expect.any(String), details: {} } });
  });
});

describe("session cookie on plain-http localhost", () => {
  it("leaves out Secure only when DASHBOARD_INSECURE_COOKIES=localhost and the host is localhost", async () => {
    const harness = await startTestDashboard({ settings: { insecureLocalhostCookies: true } });
    try {
      const organization = await harness.createOrganization();
      const member = await harness.createMember({ organizationId: organization.id, role: "viewer" });
      const local = await harness.request("POST", "/v1/auth/login", { body: { email: member.email, password: member.password }, origin: null });
      expect(local.headers.get("set-cookie")).not.toMatch(/Secure/);
      // fetch cannot set Host; node:http can.
      const remote = await new Promise<{ status: number; cookie: string }>((resolve, reject) => {
        const body = JSON.stringify({ email: member.email, password: member.password });
        const outgoing = httpRequest(
          `${harness.url}/v1/auth/login`,
          { method: "POST", headers: { host: "dashboard.example.com", "content-type": "application/json", "content-length": Buffer.byteLength(body) } },
          (incoming) => {
            incoming.resume();
            incoming.on("end", () => resolve({ status: incoming.statusCode ?? 0, cookie: String(incoming.headers["set-cookie"] ?? "") }));
          },
        );
        outgoing.on("error", reject);
        outgoing.end(body);
      });
      expect(remote.status).toBe(200);
      expect(remote.cookie).toMatch(/; Secure/);
    } finally {
      await harness.close();
    }
  });
});

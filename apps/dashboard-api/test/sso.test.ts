import { createOutboundFetch } from "@gateway/provider-adapters";
import { decodeJwt, importJWK, SignJWT } from "jose";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { authSessionSchema } from "../src/auth/session-object.js";
import { createFakeWebBuild } from "./support/fake-web-build.js";
import { newSigningKey, signInAtProvider, startLocalOpenIdProvider, type LocalOpenIdProvider, type SigningKey } from "./support/local-openid-provider.js";
import { databaseTargets } from "./support/test-database.js";
import { dashboardOrigin, startTestDashboard, type TestDashboard, type TestResponse } from "./support/test-dashboard.js";

const callbackUrl = `${dashboardOrigin}/v1/auth/sso/callback`;
const clientSecret = "sso-test-client-secret-0123456789";

/** Rewrites the ID token of a token endpoint answer (signed with `key`), to play a provider that answers wrongly. */
type IdTokenTamper = (claims: Record<string, unknown>) => { claims: Record<string, unknown>; key: SigningKey };

describe.each(databaseTargets)("single sign-on through oidc-provider (%s)", (target) => {
  let provider: LocalOpenIdProvider;
  let harness: TestDashboard;
  let organization: { id: string; slug: string };
  let owner: { userId: string; email: string; password: string };
  let ownerCookie: string;
  let teamId: string;
  let projectId: string;
  let tamper: IdTokenTamper | null = null;
  const realFetch = createOutboundFetch();

  // The dashboard's outbound fetch (address policy applied), with a hook on the token endpoint's answer.
  const outboundFetch = (async (input: string | URL | Request, init?: RequestInit) => {
    const response = await realFetch(input, init);
    const url = typeof input === "string" ? input : input instanceof URL ? input.href : input.url;
    if (tamper === null || !url.endsWith("/token") || response.status !== 200) return response;
    const body = (await response.json()) as Record<string, unknown>;
    const original = decodeJwt(String(body.id_token));
    const changed = tamper(original as Record<string, unknown>);
    const key = await importJWK(changed.key, "ES256");
    body.id_token = await new SignJWT(changed.claims).setProtectedHeader({ alg: "ES256", kid: changed.key.kid, typ: "JWT" }).sign(key);
    return new Response(JSON.stringify(body), { status: 200, headers: { "content-type": "application/json" } });
  }) as typeof fetch;

  beforeAll(async () => {
    provider = await startLocalOpenIdProvider({
      clients: [{ client_id: "gateway-dashboard", client_secret: clientSecret, redirect_uris: [callbackUrl] }],
      accounts: {
        ada: { email: "ada@acme.test", name: "Ada Owner", groups: ["gateway-owners"] },
        bob: { email: "bob@acme.test", name: "Bob Builder", groups: ["engineering"] },
        carol: { email: "carol@acme.test", name: "Carol", groups: [] },
        dave: { email: "dave@acme.test", name: "Dave", groups: [] },
        eve: { email: "eve@elsewhere.test", name: "Eve", groups: ["gateway-owners"] },
      },
    });
    harness = await startTestDashboard({
      target,
      settings: { webRoot: null, ssoBreakGlassEmails: ["ada@acme.test", "dave@acme.test"] },
      dependencies: { outboundFetch },
    });
    organization = await harness.createOrganization({ name: "Acme" });
    owner = await harness.createMember({ organizationId: organization.id, role: "owner", email: "ada@acme.test", name: "Ada" });
    ownerCookie = await harness.login(owner.email, owner.password);
    teamId = (await harness.request("POST", "/api/teams", { cookie: ownerCookie, body: { name: "Engineering", default_role: "member" } })).body.id;
    projectId = (await harness.request("POST", "/api/projects", { cookie: ownerCookie, body: { name: "Alpha" } })).body.id;
    const configured = await configure({});
    expect(configured.status).toBe(200);
  });
  afterAll(async () => {
    await harness?.close();
    await provider?.close();
  });
  beforeEach(() => {
    tamper = null;
  });

  function configure(overrides: Record<string, unknown>, cookie = ownerCookie): Promise<TestResponse> {
    return harness.request("PUT", "/api/sso-configuration", {
      cookie,
      body: {
        issuer_url: provider.issuer,
        client_id: "gateway-dashboard",
        client_secret: clientSecret,
        scopes: ["openid", "email", "profile", "groups"],
        allowed_email_domains: ["acme.test"],
        role_mappings: [
          { group: "gateway-owners", role: "owner" },
          { group: "engineering", role: "member" },
          { group: "auditors", role: "viewer" },
        ],
        team_mappings: [{ group: "engineering", team_id: teamId }],
        project_mappings: [{ group: "engineering", project_id: projectId }],
        jit_provisioning: true,
        default_role: "viewer",
        ...overrides,
      },
    });
  }

  /** Starts at the dashboard, signs in at the provider's login page, and answers the callback's response. */
  async function ssoSignIn(login: string, options: { keepStateCookie?: boolean } = {}): Promise<{ response: TestResponse; callbackPath: string; stateCookie: string }> {
    const start = await harness.request("GET", `/v1/auth/sso/start?organization=${organization.slug}`);
    expect(start.status).toBe(303);
    const stateCookie = (start.headers.get("set-cookie") ?? "").split(";")[0]!;
    expect(stateCookie).toMatch(/^gateway_sso_state=.+/);
    const back = await signInAtProvider(start.headers.get("location")!, login);
    expect(`${back.origin}${back.pathname}`).toBe(callbackUrl);
    const callbackPath = `${back.pathname}${back.search}`;
    const response = await harness.request("GET", callbackPath, { cookie: options.keepStateCookie === false ? undefined : stateCookie });
    return { response, callbackPath, stateCookie };
  }

  async function membership(email: string) {
    const user = await harness.database.prisma.user.findUnique({ where: { emailNormalized: email } });
    if (user === null) return null;
    const row = await harness.database.prisma.membership.findUnique({ where: { organizationId_userId: { organizationId: organization.id, userId: user.id } } });
    const teams = await harness.database.prisma.teamMember.findMany({ where: { userId: user.id } });
    const projects = await harness.database.prisma.projectMember.findMany({ where: { userId: user.id } });
    return { userId: user.id, role: row?.role ?? null, teamIds: teams.map((team) => team.teamId), projectIds: projects.map((project) => project.projectId) };
  }

  it("refuses to require SSO until an owner has signed in through it", async () => {
    const refused = await harness.request("PATCH", "/api/organization", { cookie: ownerCookie, body: { authentication_required: "sso" } });
    expect(refused.status).toBe(400);
    expect(refused.body.error.message).toMatch(/No owner has signed in through single sign-on/);
  });

  it("signs an existing owner in: the same auth.session object and gateway_session cookie as the password login", async () => {
    const { response } = await ssoSignIn("ada");
    expect(response.status).toBe(200);
    const session = authSessionSchema.strict().parse(response.body);
    expect(session.person.email).toBe("ada@acme.test");
    expect(session.user).toMatchObject({ id: owner.userId, role: "owner" });
    const cookies = response.headers.getSetCookie();
    const sessionCookie = cookies.find((cookie) => cookie.startsWith("gateway_session="))!;
    expect(sessionCookie).toMatch(/HttpOnly/);
    expect(sessionCookie).toMatch(/SameSite=Lax/);
    expect(cookies.some((cookie) => cookie.startsWith("gateway_sso_state=;") && cookie.includes("Max-Age=0"))).toBe(true);
    const again = await harness.request("GET", "/v1/auth/session", { cookie: sessionCookie.split(";")[0] });
    expect(again.status).toBe(200);
    expect(Object.keys(again.body).sort()).toEqual(Object.keys(response.body).sort());
    const configuration = await harness.request("GET", "/api/sso-configuration", { cookie: ownerCookie });
    expect(configuration.body.owner_signed_in_at).not.toBeNull();
    const audit = await harness.database.prisma.auditEvent.findMany({ where: { organizationId: organization.id, action: "auth.login_sso" } });
    expect(audit.length).toBeGreaterThan(0);
  });

  it("now lets the organization require SSO, and the password login then points to the SSO start", async () => {
    const required = await harness.request("PATCH", "/api/organization", { cookie: ownerCookie, body: { authentication_required: "sso" } });
    expect(required.status).toBe(200);
    const member = await harness.createMember({ organizationId: organization.id, role: "member", email: "mallory@acme.test" });
    const refused = await harness.request("POST", "/v1/auth/login", { body: { email: member.email, password: member.password }, origin: null });
    expect(refused.status).toBe(403);
    expect(refused.body.error.code).toBe("sso_required");
    expect(refused.body.error.details.sso_start_url).toBe(`/v1/auth/sso/start?organization=${organization.slug}&login_hint=mallory%40acme.test`);
  });

  it("break-glass: a listed owner keeps the password (audited); a listed non-owner does not", async () => {
    const allowed = await harness.request("POST", "/v1/auth/login", { body: { email: owner.email, password: owner.password }, origin: null });
    expect(allowed.status).toBe(200);
    const audit = await harness.database.prisma.auditEvent.findMany({ where: { organizationId: organization.id, action: "auth.login_break_glass" } });
    expect(audit).toHaveLength(1);
    const dave = await harness.createMember({ organizationId: organization.id, role: "admin", email: "dave@acme.test" });
    const refused = await harness.request("POST", "/v1/auth/login", { body: { email: dave.email, password: dave.password }, origin: null });
    expect(refused.status).toBe(403);
    expect(refused.body.error.code).toBe("sso_required");
  });

  it("provisions a new member just in time, with the role, team and project its groups map to (audited)", async () => {
    const { response } = await ssoSignIn("bob");
    expect(response.status).toBe(200);
    expect(response.body.user.role).toBe("member");
    expect(await membership("bob@acme.test")).toMatchObject({ role: "member", teamIds: [teamId], projectIds: [projectId] });
    const audit = await harness.database.prisma.auditEvent.findMany({ where: { organizationId: organization.id, action: "member.provisioned_by_sso" } });
    expect(audit).toHaveLength(1);
  });

  it("applies changed groups at the next sign-in: role, team and project follow (audited)", async () => {
    provider.accounts.get("bob")!.groups = ["auditors"];
    const { response } = await ssoSignIn("bob");
    expect(response.status).toBe(200);
    expect(response.body.user.role).toBe("viewer");
    expect(await membership("bob@acme.test")).toMatchObject({ role: "viewer", teamIds: [], projectIds: [] });
    const actions = (await harness.database.prisma.auditEvent.findMany({ where: { organizationId: organization.id, targetId: response.body.user.id } })).map((event) => event.action);
    expect(actions).toEqual(expect.arrayContaining(["member.role_synced_from_sso", "member.groups_synced_from_sso"]));
  });

  it("never demotes the organization's last owner from the claims: the role stays and the skip is audited", async () => {
    const owners = await harness.database.prisma.membership.count({ where: { organizationId: organization.id, role: "owner" } });
    expect(owners).toBe(1);
    provider.accounts.get("ada")!.groups = ["engineering"];
    try {
      const { response } = await ssoSignIn("ada");
      expect(response.status).toBe(200);
      expect(response.body.user.role).toBe("owner");
      expect((await membership("ada@acme.test"))?.role).toBe("owner");
      const skipped = await harness.database.prisma.auditEvent.findMany({ where: { organizationId: organization.id, action: "member.role_sync_skipped_last_owner" } });
      expect(skipped).toHaveLength(1);
    } finally {
      provider.accounts.get("ada")!.groups = ["gateway-owners"];
    }
  });

  it("without just-in-time provisioning, admits only invited people", async () => {
    expect((await configure({ jit_provisioning: false })).status).toBe(200);
    try {
      const refused = await ssoSignIn("carol");
      expect(refused.response.status).toBe(403);
      expect(refused.response.body.error.code).toBe("sso_not_allowed");
      expect(refused.response.body.error.message).toMatch(/invitation/);
      expect(await membership("carol@acme.test")).toBeNull();
      const invited = await harness.request("POST", "/api/invitations", { cookie: ownerCookie, body: { email: "carol@acme.test", role: "member", project_ids: [] } });
      expect(invited.status).toBe(201);
      const admitted = await ssoSignIn("carol");
      expect(admitted.response.status).toBe(200);
      // No role mapping matched: the configuration's default role.
      expect(admitted.response.body.user.role).toBe("viewer");
    } finally {
      await configure({});
    }
  });

  it("refuses an email outside the allowed domains", async () => {
    const { response } = await ssoSignIn("eve");
    expect(response.status).toBe(403);
    expect(response.body.error).toMatchObject({ code: "sso_not_allowed" });
    expect(response.body.error.message).toMatch(/elsewhere\.test/);
    expect(await membership("eve@elsewhere.test")).toBeNull();
  });

  it("refuses a replayed callback and one without this browser's state cookie", async () => {
    const first = await ssoSignIn("ada");
    expect(first.response.status).toBe(200);
    const replay = await harness.request("GET", first.callbackPath, { cookie: first.stateCookie });
    expect(replay.status).toBe(401);
    expect(replay.body.error.code).toBe("sso_failed");
    expect(replay.body.error.message).toMatch(/already used/);
    expect(replay.headers.get("x-request-id")).toMatch(/^req_/);

    const noCookie = await ssoSignIn("ada", { keepStateCookie: false });
    expect(noCookie.response.status).toBe(401);
    expect(noCookie.response.body.error.message).toMatch(/not started in this browser/);
  });

  it.each([
    ["a wrong issuer", (claims: Record<string, unknown>) => ({ ...claims, iss: "http://127.0.0.1:9/other" }), /another issuer/],
    ["a wrong audience", (claims: Record<string, unknown>) => ({ ...claims, aud: "someone-else" }), /another client/],
    ["a bad nonce", (claims: Record<string, unknown>) => ({ ...claims, nonce: "not-this-sign-in" }), /nonce/],
    ["an expired ID token", (claims: Record<string, unknown>) => ({ ...claims, iat: Math.floor(Date.now() / 1000) - 7200, exp: Math.floor(Date.now() / 1000) - 3600 }), /expired/],
  ])("refuses %s", async (_label, change, message) => {
    tamper = (claims) => ({ claims: change(claims), key: provider.signingKey() });
    const { response } = await ssoSignIn("ada");
    expect(response.status).toBe(401);
    expect(response.body.error.code).toBe("sso_failed");
    expect(response.body.error.message).toMatch(message);
  });

  it("refuses an ID token signed with a key the provider does not publish", async () => {
    const stranger = newSigningKey();
    tamper = (claims) => ({ claims, key: stranger });
    const { response } = await ssoSignIn("ada");
    expect(response.status).toBe(401);
    expect(response.body.error.message).toMatch(/key the provider does not publish/);
  });

  it("follows a key rotation at once: the new key is accepted, the removed one refused", async () => {
    // Sign-ins just happened: a key cache kept from them would not know the new key yet.
    const retired = provider.signingKey();
    const next = newSigningKey();
    provider.rotateKeys([next]);
    const signedWithNew = await ssoSignIn("ada");
    expect(signedWithNew.response.status).toBe(200);
    tamper = (claims) => ({ claims, key: retired });
    const signedWithRetired = await ssoSignIn("ada");
    expect(signedWithRetired.response.status).toBe(401);
    expect(signedWithRetired.response.body.error.message).toMatch(/key the provider does not publish/);
  });

  it("answers a readable error when the provider is down, at the start and at the callback", async () => {
    await provider.stop();
    try {
      const json = await harness.request("GET", `/v1/auth/sso/start?organization=${organization.slug}`);
      expect(json.status).toBe(502);
      expect(json.body.error.code).toBe("sso_provider_unavailable");
      const page = await harness.request("GET", `/v1/auth/sso/start?organization=${organization.slug}`, { headers: { accept: "text/html" } });
      expect(page.status).toBe(502);
      expect(page.headers.get("content-type")).toMatch(/text\/html/);
      expect(page.text).toContain("Single sign-on failed");
      expect(page.text).toContain("sso_provider_unavailable");
    } finally {
      await provider.resume();
    }
    const start = await harness.request("GET", `/v1/auth/sso/start?organization=${organization.slug}`);
    const stateCookie = (start.headers.get("set-cookie") ?? "").split(";")[0]!;
    const back = await signInAtProvider(start.headers.get("location")!, "ada");
    await provider.stop();
    try {
      const callback = await harness.request("GET", `${back.pathname}${back.search}`, { cookie: stateCookie });
      expect(callback.status).toBe(502);
      expect(callback.body.error.code).toBe("sso_provider_unavailable");
    } finally {
      await provider.resume();
    }
  });

  it("discovers SSO by email domain only, whatever the account", async () => {
    const known = await harness.request("POST", "/v1/auth/sso/discover", { body: { email: "ada@acme.test" }, origin: null });
    const unknown = await harness.request("POST", "/v1/auth/sso/discover", { body: { email: "nobody-here@ACME.test" }, origin: null });
    expect(known.status).toBe(200);
    expect(known.body.organizations).toEqual([expect.objectContaining({ slug: organization.slug, sso_required: true })]);
    expect(unknown.body.organizations.map((entry: { slug: string }) => entry.slug)).toEqual([organization.slug]);
    const other = await harness.request("POST", "/v1/auth/sso/discover", { body: { email: "ada@elsewhere.test" }, origin: null });
    expect(other.body).toEqual({ object: "auth.sso_discovery", organizations: [] });
  });

  it("tests the configuration: the claims received, without signing anyone in", async () => {
    const started = await harness.request("POST", "/api/sso-configuration/test", { cookie: ownerCookie });
    expect(started.status).toBe(200);
    const stateCookie = (started.headers.get("set-cookie") ?? "").split(";")[0]!;
    const back = await signInAtProvider(started.body.authorization_url, "bob");
    const callback = await harness.request("GET", `${back.pathname}${back.search}`, { cookie: stateCookie });
    expect(callback.status).toBe(200);
    expect(callback.body).toMatchObject({ object: "sso.test_result", email: "bob@acme.test", groups: ["auditors"], role: "viewer" });
    expect(callback.body.claims).toMatchObject({ sub: "bob", iss: provider.issuer, aud: "gateway-dashboard" });
    expect(callback.headers.getSetCookie().some((cookie) => cookie.startsWith("gateway_session="))).toBe(false);
    const read = await harness.request("GET", `/api/sso-configuration/tests/${callback.body.id}`, { cookie: ownerCookie });
    expect(read.status).toBe(200);
    expect(read.body.claims.email).toBe("bob@acme.test");
  });

  it("keeps the client secret write-only and validates what is stored", async () => {
    const read = await harness.request("GET", "/api/sso-configuration", { cookie: ownerCookie });
    expect(read.body).toMatchObject({ has_client_secret: true, redirect_uri: callbackUrl, client_auth_method: "client_secret_basic" });
    expect(read.text).not.toContain(clientSecret);
    const stored = await harness.database.prisma.ssoConfiguration.findUnique({ where: { organizationId: organization.id } });
    expect(stored!.clientCredentialCiphertext).not.toContain(clientSecret);
    const plainHttp = await configure({ issuer_url: "http://login.example.com" });
    expect(plainHttp.status).toBe(400);
    expect(plainHttp.body.error.message).toMatch(/https/);
    const unknownTeam = await configure({ team_mappings: [{ group: "x", team_id: "team_missing" }] });
    expect(unknownTeam.status).toBe(400);
    expect(unknownTeam.body.error.details.param).toBe("team_mappings.0.team_id");
    const viewer = await harness.createMember({ organizationId: (await harness.createOrganization()).id, role: "admin" });
    const adminCookie = await harness.login(viewer.email, viewer.password);
    expect((await configure({}, adminCookie)).status).toBe(403);
  });
});

describe("single sign-on with private_key_jwt and a browser sent to the web app", () => {
  let provider: LocalOpenIdProvider;
  let harness: TestDashboard;
  const web = createFakeWebBuild();
  let privateJwk: Record<string, unknown>;

  beforeAll(async () => {
    privateJwk = newSigningKey();
    const { d: _d, ...publicJwk } = privateJwk;
    provider = await startLocalOpenIdProvider({
      clients: [{ client_id: "key-client", token_endpoint_auth_method: "private_key_jwt", jwks: { keys: [publicJwk] }, redirect_uris: [callbackUrl] }],
      accounts: { grace: { email: "grace@navy.test", name: "Grace", groups: [] } },
    });
    harness = await startTestDashboard({ settings: { webRoot: web.root } });
  });
  afterAll(async () => {
    await harness?.close();
    await provider?.close();
    web.remove();
  });

  it("authenticates to the token endpoint with a signed assertion and sends the browser to the web app", async () => {
    const organization = await harness.createOrganization({ name: "Navy" });
    const owner = await harness.createMember({ organizationId: organization.id, role: "owner" });
    const cookie = await harness.login(owner.email, owner.password);
    const put = await harness.request("PUT", "/api/sso-configuration", {
      cookie,
      body: { issuer_url: provider.issuer, client_id: "key-client", client_auth_method: "private_key_jwt", private_key: JSON.stringify(privateJwk), jit_provisioning: true },
    });
    expect(put.status).toBe(200);
    expect(put.body.public_jwk).toMatchObject({ kty: "EC", kid: privateJwk.kid });
    expect(put.body.public_jwk.d).toBeUndefined();
    const html = { accept: "text/html" };
    // The sign-in page gets the error back, and the email that was typed.
    const unknown = await harness.request("GET", "/v1/auth/sso/start?organization=no-such-organization&login_hint=grace%40navy.test", { headers: html });
    expect(unknown.status).toBe(303);
    const refusedAt = new URL(unknown.headers.get("location")!, dashboardOrigin);
    expect([refusedAt.pathname, refusedAt.searchParams.get("sso_error"), refusedAt.searchParams.get("email")]).toEqual(["/login", "not_found", "grace@navy.test"]);
    const start = await harness.request("GET", `/v1/auth/sso/start?organization=${organization.slug}`, { headers: html });
    const stateCookie = (start.headers.get("set-cookie") ?? "").split(";")[0]!;
    const back = await signInAtProvider(start.headers.get("location")!, "grace");
    const callback = await harness.request("GET", `${back.pathname}${back.search}`, { cookie: stateCookie, headers: html });
    expect(callback.status).toBe(303);
    expect(callback.headers.get("location")).toBe("/");
    expect(callback.headers.getSetCookie().some((value) => value.startsWith("gateway_session="))).toBe(true);

    // A failure sends the browser to the sign-in page with the error code.
    const replay = await harness.request("GET", `${back.pathname}${back.search}`, { cookie: stateCookie, headers: html });
    expect(replay.status).toBe(303);
    const location = new URL(replay.headers.get("location")!, dashboardOrigin);
    expect(location.pathname).toBe("/login");
    expect(location.searchParams.get("sso_error")).toBe("sso_failed");
    expect(location.searchParams.get("request_id")).toMatch(/^req_/);
  });
});

import { storeMcpServerTokens } from "@gateway/db";
import { type LocalOAuthServer, startLocalOAuthServer } from "@gateway/mcp/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createFakeWebBuild } from "./support/fake-web-build.js";
import { startLocalHttpServer } from "./support/local-http-server.js";
import { dashboardOrigin, startTestDashboard, type TestDashboard } from "./support/test-dashboard.js";

describe("MCP servers: OAuth 2.1 with PKCE against a local authorization server", () => {
  let authorization: LocalOAuthServer;
  let harness: TestDashboard;
  let cookie: string;
  const webBuild = createFakeWebBuild();

  beforeAll(async () => {
    authorization = await startLocalOAuthServer();
    harness = await startTestDashboard({ settings: { webRoot: webBuild.root } });
    const organizationId = (await harness.createOrganization()).id;
    const owner = await harness.createMember({ organizationId, role: "owner" });
    cookie = await harness.login(owner.email, owner.password);
  });
  afterAll(async () => {
    await harness.close();
    await authorization.close();
    webBuild.remove();
  });

  const call = (method: string, path: string, body?: unknown) => harness.request(method, path, { cookie, body });
  /** The browser's trip: authorization URL -> redirect to the dashboard callback. */
  async function authorize(authorizationUrl: string): Promise<string> {
    const redirect = await fetch(authorizationUrl, { redirect: "manual" });
    expect(redirect.status).toBe(302);
    const location = new URL(redirect.headers.get("location")!);
    expect(location.origin).toBe(dashboardOrigin);
    return `${location.pathname}${location.search}`;
  }

  it("discovers, registers a client, authorizes, stores the tokens encrypted, and revokes", async () => {
    const server = await call("POST", "/api/mcp/servers", { name: "tickets", url: `${authorization.url}/mcp` });
    expect(server.status).toBe(201);
    expect(server.body).toMatchObject({ auth_kind: "oauth", status: "disconnected", has_credentials: false, object: "mcp.server" });

    const started = await call("POST", `/api/mcp/servers/${server.body.id}/oauth`);
    expect(started.status, started.text).toBe(200);
    expect(started.body).toMatchObject({
      server_id: server.body.id,
      state: expect.any(String),
      redirect_uri: `${dashboardOrigin}/api/mcp/oauth/callback`,
      authorization_server: `${authorization.url}/as`,
      scope: "tickets:read tickets:write",
      code_challenge_method: "S256",
      object: "mcp.oauth.authorization",
    });
    expect(authorization.clients.has(started.body.client_id)).toBe(true);
    const authorizationUrl = new URL(started.body.authorization_url);
    expect(authorizationUrl.searchParams.get("code_challenge")).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(authorizationUrl.searchParams.get("state")).toBe(started.body.state);
    expect((await call("GET", `/api/mcp/servers/${server.body.id}`)).body.status).toBe("pending");

    const callbackPath = await authorize(started.body.authorization_url);
    const finished = await harness.request("GET", callbackPath);
    expect(finished.status, finished.text).toBe(200);
    expect(finished.body).toMatchObject({ server_id: server.body.id, status: "connected", object: "mcp.oauth.result" });
    // The state is single use.
    expect((await harness.request("GET", callbackPath)).status).toBe(404);

    const row = await harness.database.prisma.mcpServer.findUniqueOrThrow({ where: { id: server.body.id } });
    const exchanged = authorization.tokenRequests.at(-1)!;
    expect(exchanged.get("grant_type")).toBe("authorization_code");
    const stored = JSON.parse(harness.dashboard.services.secrets.decrypt(row.tokensCiphertext!));
    expect(stored.access_token).toMatch(/^at_/);
    expect(row.tokensCiphertext).not.toContain(stored.access_token);
    expect(row.tokensCiphertext).not.toContain(stored.refresh_token);
    const connected = await call("GET", `/api/mcp/servers/${server.body.id}`);
    expect(connected.body).toMatchObject({ status: "connected", has_credentials: true, oauth_client_id: started.body.client_id });
    expect(JSON.stringify(connected.body)).not.toContain(stored.access_token);

    const tokens = await call("GET", `/api/mcp/tokens?server_id=${server.body.id}`);
    expect(tokens.body.data).toHaveLength(1);
    const token = tokens.body.data[0];
    expect(token).toMatchObject({ id: finished.body.token_id, status: "active", scopes: ["tickets:read", "tickets:write"], object: "mcp.token" });

    const revoked = await call("DELETE", `/api/mcp/tokens/${token.id}`);
    expect(revoked.status).toBe(200);
    expect(revoked.body).toMatchObject({ id: token.id, status: "revoked", object: "mcp.token" });
    expect(authorization.revoked).toEqual(expect.arrayContaining([stored.access_token, stored.refresh_token]));
    const disconnected = await call("GET", `/api/mcp/servers/${server.body.id}`);
    expect(disconnected.body).toMatchObject({ status: "disconnected", has_credentials: false });
    const again = await call("DELETE", `/api/mcp/tokens/${token.id}`);
    expect(again.body.revoked_at).toBe(revoked.body.revoked_at);
  });

  it("sends the browser back to the web app's MCP page once connected", async () => {
    const server = await call("POST", "/api/mcp/servers", { name: "browser", url: `${authorization.url}/mcp` });
    const started = await call("POST", `/api/mcp/servers/${server.body.id}/oauth`);
    const callbackPath = await authorize(started.body.authorization_url);
    const finished = await harness.request("GET", callbackPath, { headers: { accept: "text/html,application/xhtml+xml,*/*;q=0.8" } });
    expect(finished.status).toBe(303);
    expect(finished.headers.get("location")).toBe(`/mcp?outcome=ok&server_id=${server.body.id}`);
    expect((await call("GET", `/api/mcp/servers/${server.body.id}`)).body).toMatchObject({ status: "connected", has_credentials: true });
  });

  it("answers 404 for an unknown state and records a refused authorization", async () => {
    expect((await harness.request("GET", "/api/mcp/oauth/callback?state=unknown&code=x")).status).toBe(404);
    const server = await call("POST", "/api/mcp/servers", { name: "refused", url: `${authorization.url}/mcp` });
    const started = await call("POST", `/api/mcp/servers/${server.body.id}/oauth`);
    const refused = await harness.request("GET", `/api/mcp/oauth/callback?state=${encodeURIComponent(started.body.state)}&error=access_denied`);
    expect(refused.status).toBe(400);
    expect(refused.body.error.details.oauth_error).toBe("access_denied");
    expect((await call("GET", `/api/mcp/servers/${server.body.id}`)).body.status).toBe("error");
  });

  it("answers 502 when the MCP server publishes no OAuth metadata", async () => {
    const plain = await startLocalHttpServer((_request, response) => {
      response.writeHead(404).end();
    });
    try {
      const server = await call("POST", "/api/mcp/servers", { name: "no-oauth", url: `${plain.url}/mcp` });
      const started = await call("POST", `/api/mcp/servers/${server.body.id}/oauth`);
      expect(started.status).toBe(502);
      expect(started.body.error.code).toBe("upstream_error");
      expect((await call("GET", `/api/mcp/servers/${server.body.id}`)).body).toMatchObject({ status: "error", status_message: expect.stringContaining("RFC 9728") });
    } finally {
      await plain.close();
    }
  });

  it("keeps bearer tokens write-only and refuses OAuth for them", async () => {
    const server = await call("POST", "/api/mcp/servers", { name: "static", url: "https://mcp.example.com/mcp", auth_kind: "bearer", bearer_token: "static-secret-token" });
    expect(server.body).toMatchObject({ auth_kind: "bearer", has_credentials: true, status: "connected" });
    expect(JSON.stringify(server.body)).not.toContain("static-secret-token");
    expect((await call("POST", `/api/mcp/servers/${server.body.id}/oauth`)).status).toBe(400);
    expect((await call("POST", "/api/mcp/servers", { name: "no-token", url: "https://mcp.example.com/mcp", auth_kind: "bearer" })).status).toBe(400);
  });
});

describe("MCP tokens for MCP clients", () => {
  let harness: TestDashboard;
  let organizationId: string;
  let owner: string;
  let member: string;
  let memberProject: string;
  let otherProject: string;

  beforeAll(async () => {
    harness = await startTestDashboard();
    organizationId = (await harness.createOrganization()).id;
    const ownerAccount = await harness.createMember({ organizationId, role: "owner" });
    owner = await harness.login(ownerAccount.email, ownerAccount.password);
    const memberAccount = await harness.createMember({ organizationId, role: "member" });
    memberProject = (await harness.request("POST", "/api/projects", { cookie: owner, body: { name: "member's" } })).body.id;
    otherProject = (await harness.request("POST", "/api/projects", { cookie: owner, body: { name: "not the member's" } })).body.id;
    expect((await harness.request("PATCH", `/api/members/${memberAccount.userId}`, { cookie: owner, body: { project_ids: [memberProject] } })).status).toBe(200);
    member = await harness.login(memberAccount.email, memberAccount.password);
  });
  afterAll(async () => harness.close());

  const key = async (projectId: string) => (await harness.request("POST", "/api/api-keys", { cookie: owner, body: { name: "k", project_id: projectId } })).body.id as string;

  it("issues a gmt_ token once, stores only its hash, narrows it to a server, and revokes it without touching the server's grant", async () => {
    const apiKeyId = await key(memberProject);
    const server = await harness.request("POST", "/api/mcp/servers", { cookie: owner, body: { name: "authorized", url: "https://mcp.example.com/mcp" } });
    await storeMcpServerTokens(harness.database, { organizationId, id: server.body.id, tokens: { accessToken: "at_upstream", refreshToken: "rt_upstream" }, expiresAt: null }, { secretBox: harness.dashboard.services.secrets });
    const issued = await harness.request("POST", "/api/mcp/tokens", { cookie: member, body: { name: "my IDE", api_key_id: apiKeyId, server_id: server.body.id } });
    expect(issued.status, issued.text).toBe(201);
    expect(issued.headers.get("cache-control")).toBe("no-store");
    expect(issued.body).toMatchObject({ kind: "issued", name: "my IDE", api_key_id: apiKeyId, server_id: server.body.id, status: "active", object: "mcp.token" });
    expect(issued.body.token).toMatch(/^gmt_[A-Za-z0-9_-]{43}$/);
    expect(issued.body.prefix).toBe(issued.body.token.slice(0, 10));
    const row = await harness.database.prisma.mcpToken.findUniqueOrThrow({ where: { id: issued.body.id } });
    expect(row.tokenHash).toMatch(/^[0-9a-f]{64}$/);
    expect(JSON.stringify(row)).not.toContain(issued.body.token);
    const listed = await harness.request("GET", "/api/mcp/tokens", { cookie: member });
    expect(JSON.stringify(listed.body)).not.toContain(issued.body.token);
    expect(listed.body.data.find((token: { id: string }) => token.id === issued.body.id)).toMatchObject({ kind: "issued" });

    const revoked = await harness.request("DELETE", `/api/mcp/tokens/${issued.body.id}`, { cookie: member });
    expect(revoked.body).toMatchObject({ status: "revoked", revoked_at: expect.any(String) });
    expect((await harness.request("GET", `/api/mcp/servers/${server.body.id}`, { cookie: owner })).body).toMatchObject({ status: "connected", has_credentials: true });
  });

  it("refuses tokens for another project's key, a revoked or unknown key, a past expiry, or an unknown server", async () => {
    const foreign = await harness.request("POST", "/api/mcp/tokens", { cookie: member, body: { name: "x", api_key_id: await key(otherProject) } });
    expect(foreign.status).toBe(403);
    expect((await harness.request("POST", "/api/mcp/tokens", { cookie: owner, body: { name: "x", api_key_id: "missing" } })).body.error.details.param).toBe("api_key_id");
    const revokedKey = await key(memberProject);
    await harness.request("DELETE", `/api/api-keys/${revokedKey}`, { cookie: owner });
    expect((await harness.request("POST", "/api/mcp/tokens", { cookie: owner, body: { name: "x", api_key_id: revokedKey } })).status).toBe(400);
    const apiKeyId = await key(memberProject);
    expect((await harness.request("POST", "/api/mcp/tokens", { cookie: owner, body: { name: "x", api_key_id: apiKeyId, expires_at: "2000-01-01T00:00:00Z" } })).body.error.details.param).toBe("expires_at");
    expect((await harness.request("POST", "/api/mcp/tokens", { cookie: owner, body: { name: "x", api_key_id: apiKeyId, server_id: "missing" } })).status).toBe(404);
  });

  it("revokes a key's tokens with the key, and leaves grant revocation to mcp:write", async () => {
    const apiKeyId = await key(memberProject);
    const issued = await harness.request("POST", "/api/mcp/tokens", { cookie: member, body: { name: "cli", api_key_id: apiKeyId } });
    await harness.request("DELETE", `/api/api-keys/${apiKeyId}`, { cookie: owner });
    const listed = await harness.request("GET", "/api/mcp/tokens?status=revoked", { cookie: owner });
    expect(listed.body.data.map((token: { id: string }) => token.id)).toContain(issued.body.id);

    const server = await harness.request("POST", "/api/mcp/servers", { cookie: owner, body: { name: "granted", url: "https://mcp.example.com/granted" } });
    const grant = await harness.database.prisma.mcpToken.create({ data: { organizationId, serverId: server.body.id, name: "granted (OAuth)", prefix: "at_abc", scopes: [] } });
    const refused = await harness.request("DELETE", `/api/mcp/tokens/${grant.id}`, { cookie: member });
    expect(refused.status).toBe(403);
    expect((await harness.request("DELETE", `/api/mcp/tokens/${grant.id}`, { cookie: owner })).body).toMatchObject({ kind: "grant", status: "revoked" });
  });

  it("takes only server names that make valid tool-name prefixes", async () => {
    const spaced = await harness.request("POST", "/api/mcp/servers", { cookie: owner, body: { name: "my tools", url: "https://mcp.example.com/a" } });
    expect(spaced.status).toBe(400);
    expect(spaced.body.error.details).toMatchObject({ param: "name" });
    expect((await harness.request("POST", "/api/mcp/servers", { cookie: owner, body: { name: "under_score", url: "https://mcp.example.com/b" } })).status).toBe(400);
    expect((await harness.request("POST", "/api/mcp/servers", { cookie: owner, body: { name: "github-enterprise", url: "https://mcp.example.com/c" } })).status).toBe(201);
  });
});

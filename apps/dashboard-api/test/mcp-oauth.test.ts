import { createHash, randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createFakeWebBuild } from "./support/fake-web-build.js";
import { startLocalHttpServer, type ReceivedRequest } from "./support/local-http-server.js";
import { dashboardOrigin, startTestDashboard, type TestDashboard } from "./support/test-dashboard.js";

/** A tiny OAuth 2.1 authorization server + MCP resource, written for this test. */
async function startAuthorizationServer() {
  const clients = new Map<string, { redirectUris: string[] }>();
  const codes = new Map<string, { clientId: string; redirectUri: string; challenge: string; resource: string; scope: string }>();
  const revoked: string[] = [];
  const tokenRequests: URLSearchParams[] = [];
  let base = "";
  const json = (response: import("node:http").ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) =>
    response.writeHead(status, { "content-type": "application/json", ...headers }).end(JSON.stringify(body));
  const server = await startLocalHttpServer((request: ReceivedRequest, response) => {
    const url = new URL(request.path, base);
    if (url.pathname === "/mcp") {
      response.writeHead(401, { "www-authenticate": `Bearer resource_metadata="${base}/.well-known/oauth-protected-resource/mcp"` }).end();
    } else if (url.pathname === "/.well-known/oauth-protected-resource/mcp") {
      json(response, 200, { resource: `${base}/mcp`, authorization_servers: [`${base}/as`], scopes_supported: ["tickets:read", "tickets:write"] });
    } else if (url.pathname === "/.well-known/oauth-authorization-server/as") {
      json(response, 200, {
        issuer: `${base}/as`,
        authorization_endpoint: `${base}/as/authorize`,
        token_endpoint: `${base}/as/token`,
        registration_endpoint: `${base}/as/register`,
        revocation_endpoint: `${base}/as/revoke`,
        response_types_supported: ["code"],
        code_challenge_methods_supported: ["S256"],
        token_endpoint_auth_methods_supported: ["none"],
      });
    } else if (url.pathname === "/as/register" && request.method === "POST") {
      const body = JSON.parse(request.body) as { redirect_uris: string[]; token_endpoint_auth_method: string };
      const clientId = `client_${randomBytes(4).toString("hex")}`;
      clients.set(clientId, { redirectUris: body.redirect_uris });
      json(response, 201, { client_id: clientId, redirect_uris: body.redirect_uris, token_endpoint_auth_method: body.token_endpoint_auth_method });
    } else if (url.pathname === "/as/authorize") {
      const query = url.searchParams;
      const client = clients.get(query.get("client_id") ?? "");
      const redirectUri = query.get("redirect_uri") ?? "";
      if (!client || !client.redirectUris.includes(redirectUri) || query.get("response_type") !== "code" || query.get("code_challenge_method") !== "S256" || query.get("resource") !== `${base}/mcp`) {
        json(response, 400, { error: "invalid_request" });
        return;
      }
      const code = randomBytes(8).toString("hex");
      codes.set(code, { clientId: query.get("client_id")!, redirectUri, challenge: query.get("code_challenge")!, resource: query.get("resource")!, scope: query.get("scope") ?? "" });
      const target = new URL(redirectUri);
      target.searchParams.set("code", code);
      target.searchParams.set("state", query.get("state")!);
      response.writeHead(302, { location: target.toString() }).end();
    } else if (url.pathname === "/as/token" && request.method === "POST") {
      const form = new URLSearchParams(request.body);
      tokenRequests.push(form);
      const grant = codes.get(form.get("code") ?? "");
      codes.delete(form.get("code") ?? "");
      const verifierHash = createHash("sha256").update(form.get("code_verifier") ?? "").digest("base64url");
      if (!grant || grant.clientId !== form.get("client_id") || grant.redirectUri !== form.get("redirect_uri") || grant.challenge !== verifierHash || grant.resource !== form.get("resource")) {
        json(response, 400, { error: "invalid_grant" });
        return;
      }
      json(response, 200, { access_token: `at_${randomBytes(16).toString("hex")}`, token_type: "Bearer", expires_in: 3600, refresh_token: `rt_${randomBytes(16).toString("hex")}`, scope: grant.scope });
    } else if (url.pathname === "/as/revoke" && request.method === "POST") {
      revoked.push(new URLSearchParams(request.body).get("token") ?? "");
      response.writeHead(200).end();
    } else {
      json(response, 404, { error: "not_found" });
    }
  });
  base = server.url;
  return { ...server, revoked, tokenRequests, clients };
}

describe("MCP servers: OAuth 2.1 with PKCE against a local authorization server", () => {
  let authorization: Awaited<ReturnType<typeof startAuthorizationServer>>;
  let harness: TestDashboard;
  let cookie: string;
  const webBuild = createFakeWebBuild();

  beforeAll(async () => {
    authorization = await startAuthorizationServer();
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

import { createHash, randomBytes } from "node:crypto";
import { type IncomingMessage, type ServerResponse, createServer } from "node:http";
import type { AddressInfo } from "node:net";

/** Options of {@link startLocalOAuthServer}. */
export interface LocalOAuthServerOptions {
  /** Lifetime of the access tokens it issues, in seconds (default 3600). */
  accessTokenLifetimeSeconds?: number;
  /** The scopes its protected resource advertises (default `tickets:read tickets:write`). */
  scopes?: string[];
  /**
   * Serves the protected resource at `/mcp` (an MCP server that checks tokens with
   * `isValidAccessToken`); default: every request gets 401 with the resource-metadata hint.
   */
  resource?: (request: IncomingMessage, response: ServerResponse) => void | Promise<void>;
}

/** A running {@link startLocalOAuthServer}. */
export interface LocalOAuthServer {
  /** Its origin, `http://127.0.0.1:<port>`. */
  url: string;
  /** The protected resource (the MCP endpoint): `<url>/mcp`. */
  resourceUrl: string;
  /** Its authorization server's issuer: `<url>/as`. */
  issuer: string;
  /** Dynamically registered clients. */
  clients: Map<string, { redirectUris: string[] }>;
  /** Every form posted to the token endpoint, in order. */
  tokenRequests: URLSearchParams[];
  /** Tokens posted to the revocation endpoint. */
  revoked: string[];
  /** Whether an access token was issued here and is neither expired nor revoked. */
  isValidAccessToken(token: string | undefined): boolean;
  /** Ends every access token issued so far (the resource answers 401 to them). */
  expireAccessTokens(): void;
  /** Revokes every refresh token issued so far (a refresh with one gets `invalid_grant`). */
  revokeRefreshTokens(): void;
  close(): Promise<void>;
}

/**
 * A small OAuth 2.1 authorization server with a protected MCP resource, for tests: RFC 9728 and
 * RFC 8414 metadata, dynamic client registration, the authorization code flow with PKCE (S256)
 * and the RFC 8707 resource (the authorization endpoint redirects at once, as if the user had
 * agreed), the refresh-token grant with rotation, and RFC 7009 revocation. Runs on port 0.
 */
export async function startLocalOAuthServer(options: LocalOAuthServerOptions = {}): Promise<LocalOAuthServer> {
  const lifetimeSeconds = options.accessTokenLifetimeSeconds ?? 3600;
  const scopes = options.scopes ?? ["tickets:read", "tickets:write"];
  const clients = new Map<string, { redirectUris: string[] }>();
  const codes = new Map<string, { clientId: string; redirectUri: string; challenge: string; resource: string; scope: string }>();
  const accessTokens = new Map<string, { expiresAt: number; revoked: boolean }>();
  const refreshTokens = new Map<string, { clientId: string; resource: string; scope: string; active: boolean }>();
  const revoked: string[] = [];
  const tokenRequests: URLSearchParams[] = [];
  let base = "";

  const json = (response: ServerResponse, status: number, body: unknown) =>
    response.writeHead(status, { "content-type": "application/json", "cache-control": "no-store" }).end(JSON.stringify(body));
  const issue = (grant: { clientId: string; resource: string; scope: string }) => {
    const accessToken = `at_${randomBytes(16).toString("hex")}`;
    const refreshToken = `rt_${randomBytes(16).toString("hex")}`;
    accessTokens.set(accessToken, { expiresAt: Date.now() + lifetimeSeconds * 1000, revoked: false });
    refreshTokens.set(refreshToken, { ...grant, active: true });
    return { access_token: accessToken, token_type: "Bearer", expires_in: lifetimeSeconds, refresh_token: refreshToken, scope: grant.scope };
  };
  const readBody = async (request: IncomingMessage): Promise<string> => {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    return Buffer.concat(chunks).toString("utf8");
  };

  const server = createServer((request, response) => {
    void (async () => {
      const url = new URL(request.url ?? "/", base);
      if (url.pathname === "/mcp") {
        if (options.resource) return options.resource(request, response);
        response.writeHead(401, { "www-authenticate": `Bearer resource_metadata="${base}/.well-known/oauth-protected-resource/mcp"` }).end();
        return;
      }
      if (url.pathname === "/.well-known/oauth-protected-resource/mcp") {
        return json(response, 200, { resource: `${base}/mcp`, authorization_servers: [`${base}/as`], scopes_supported: scopes });
      }
      if (url.pathname === "/.well-known/oauth-authorization-server/as") {
        return json(response, 200, {
          issuer: `${base}/as`,
          authorization_endpoint: `${base}/as/authorize`,
          token_endpoint: `${base}/as/token`,
          registration_endpoint: `${base}/as/register`,
          revocation_endpoint: `${base}/as/revoke`,
          response_types_supported: ["code"],
          grant_types_supported: ["authorization_code", "refresh_token"],
          code_challenge_methods_supported: ["S256"],
          token_endpoint_auth_methods_supported: ["none"],
        });
      }
      if (url.pathname === "/as/register" && request.method === "POST") {
        const body = JSON.parse(await readBody(request)) as { redirect_uris: string[]; token_endpoint_auth_method: string };
        const clientId = `client_${randomBytes(4).toString("hex")}`;
        clients.set(clientId, { redirectUris: body.redirect_uris });
        return json(response, 201, { client_id: clientId, redirect_uris: body.redirect_uris, token_endpoint_auth_method: body.token_endpoint_auth_method });
      }
      if (url.pathname === "/as/authorize") {
        const query = url.searchParams;
        const client = clients.get(query.get("client_id") ?? "");
        const redirectUri = query.get("redirect_uri") ?? "";
        if (!client || !client.redirectUris.includes(redirectUri) || query.get("response_type") !== "code" || query.get("code_challenge_method") !== "S256" || query.get("resource") !== `${base}/mcp`) {
          return json(response, 400, { error: "invalid_request" });
        }
        const code = randomBytes(8).toString("hex");
        codes.set(code, { clientId: query.get("client_id")!, redirectUri, challenge: query.get("code_challenge")!, resource: query.get("resource")!, scope: query.get("scope") ?? "" });
        const target = new URL(redirectUri);
        target.searchParams.set("code", code);
        target.searchParams.set("state", query.get("state")!);
        response.writeHead(302, { location: target.toString() }).end();
        return;
      }
      if (url.pathname === "/as/token" && request.method === "POST") {
        const form = new URLSearchParams(await readBody(request));
        tokenRequests.push(form);
        if (form.get("grant_type") === "refresh_token") {
          const grant = refreshTokens.get(form.get("refresh_token") ?? "");
          if (!grant || !grant.active || grant.clientId !== form.get("client_id") || (form.has("resource") && form.get("resource") !== grant.resource)) {
            return json(response, 400, { error: "invalid_grant" });
          }
          grant.active = false; // rotation: a refresh token is used once
          return json(response, 200, issue(grant));
        }
        const grant = codes.get(form.get("code") ?? "");
        codes.delete(form.get("code") ?? "");
        const verifierHash = createHash("sha256").update(form.get("code_verifier") ?? "").digest("base64url");
        if (!grant || grant.clientId !== form.get("client_id") || grant.redirectUri !== form.get("redirect_uri") || grant.challenge !== verifierHash || grant.resource !== form.get("resource")) {
          return json(response, 400, { error: "invalid_grant" });
        }
        return json(response, 200, issue(grant));
      }
      if (url.pathname === "/as/revoke" && request.method === "POST") {
        const token = new URLSearchParams(await readBody(request)).get("token") ?? "";
        revoked.push(token);
        const access = accessTokens.get(token);
        if (access) access.revoked = true;
        const refresh = refreshTokens.get(token);
        if (refresh) refresh.active = false;
        response.writeHead(200).end();
        return;
      }
      json(response, 404, { error: "not_found" });
    })().catch(() => {
      if (!response.headersSent) response.writeHead(500).end();
      else response.destroy();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url: base,
    resourceUrl: `${base}/mcp`,
    issuer: `${base}/as`,
    clients,
    tokenRequests,
    revoked,
    isValidAccessToken(token) {
      const entry = token === undefined ? undefined : accessTokens.get(token);
      return entry !== undefined && !entry.revoked && entry.expiresAt > Date.now();
    },
    expireAccessTokens() {
      for (const entry of accessTokens.values()) entry.expiresAt = 0;
    },
    revokeRefreshTokens() {
      for (const entry of refreshTokens.values()) entry.active = false;
    },
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

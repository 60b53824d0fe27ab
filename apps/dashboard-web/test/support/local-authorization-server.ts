import { createHash, randomBytes } from "node:crypto";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";

/**
 * A small OAuth 2.1 authorization server and MCP resource on 127.0.0.1: RFC 9728 resource metadata,
 * RFC 8414 server metadata, dynamic client registration, an authorization endpoint that approves at
 * once (a person clicking "Allow"), and a token endpoint that checks PKCE.
 */
export async function startLocalAuthorizationServer(): Promise<{ url: string; tokensIssued: () => number; close(): Promise<void> }> {
  let base = "";
  let issued = 0;
  const clients = new Map<string, string[]>();
  const codes = new Map<string, { clientId: string; redirectUri: string; challenge: string }>();
  const json = (response: import("node:http").ServerResponse, status: number, body: unknown) => response.writeHead(status, { "content-type": "application/json" }).end(JSON.stringify(body));
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      const body = Buffer.concat(chunks).toString("utf8");
      const url = new URL(request.url ?? "/", base);
      if (url.pathname === "/mcp") {
        response.writeHead(401, { "www-authenticate": `Bearer resource_metadata="${base}/.well-known/oauth-protected-resource/mcp"` }).end();
      } else if (url.pathname === "/.well-known/oauth-protected-resource/mcp") {
        json(response, 200, { resource: `${base}/mcp`, authorization_servers: [`${base}/as`], scopes_supported: ["tools:call"] });
      } else if (url.pathname === "/.well-known/oauth-authorization-server/as") {
        json(response, 200, {
          issuer: `${base}/as`,
          authorization_endpoint: `${base}/as/authorize`,
          token_endpoint: `${base}/as/token`,
          registration_endpoint: `${base}/as/register`,
          response_types_supported: ["code"],
          code_challenge_methods_supported: ["S256"],
          token_endpoint_auth_methods_supported: ["none"],
        });
      } else if (url.pathname === "/as/register" && request.method === "POST") {
        const registration = JSON.parse(body) as { redirect_uris: string[] };
        const clientId = `client_${randomBytes(4).toString("hex")}`;
        clients.set(clientId, registration.redirect_uris);
        json(response, 201, { client_id: clientId, redirect_uris: registration.redirect_uris, token_endpoint_auth_method: "none" });
      } else if (url.pathname === "/as/authorize") {
        const clientId = url.searchParams.get("client_id") ?? "";
        const redirectUri = url.searchParams.get("redirect_uri") ?? "";
        if (!clients.get(clientId)?.includes(redirectUri) || url.searchParams.get("code_challenge_method") !== "S256") {
          json(response, 400, { error: "invalid_request" });
          return;
        }
        const code = randomBytes(8).toString("hex");
        codes.set(code, { clientId, redirectUri, challenge: url.searchParams.get("code_challenge") ?? "" });
        const target = new URL(redirectUri);
        target.searchParams.set("code", code);
        target.searchParams.set("state", url.searchParams.get("state") ?? "");
        response.writeHead(302, { location: target.toString() }).end();
      } else if (url.pathname === "/as/token" && request.method === "POST") {
        const form = new URLSearchParams(body);
        const grant = codes.get(form.get("code") ?? "");
        codes.delete(form.get("code") ?? "");
        const verifier = createHash("sha256").update(form.get("code_verifier") ?? "").digest("base64url");
        if (!grant || grant.clientId !== form.get("client_id") || grant.redirectUri !== form.get("redirect_uri") || grant.challenge !== verifier) {
          json(response, 400, { error: "invalid_grant" });
          return;
        }
        issued += 1;
        json(response, 200, { access_token: `at_${randomBytes(12).toString("hex")}`, token_type: "Bearer", expires_in: 3600, scope: "tools:call" });
      } else {
        json(response, 404, { error: "not_found" });
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { url: base, tokensIssued: () => issued, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

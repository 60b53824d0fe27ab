import { type Server, createServer } from "node:http";
import type { AddressInfo, Socket } from "node:net";
import { GatewayError } from "@gateway/errors";
import { afterEach, describe, expect, it } from "vitest";
import { startLocalOAuthServer } from "../testing/start-local-oauth-server.js";
import { discoverOAuthMetadata } from "./discover-oauth-metadata.js";

const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});

/** An HTTP server on a loopback address that records request paths and answers with `answer`. */
async function startServer(host: string, answer: (path: string, base: string) => { status: number; headers?: Record<string, string>; body?: unknown }) {
  const paths: string[] = [];
  const sockets = new Set<Socket>();
  let base = "";
  const server: Server = createServer((request, response) => {
    paths.push(request.url ?? "");
    const { status, headers = {}, body } = answer(request.url ?? "", base);
    response.writeHead(status, { "content-type": "application/json", ...headers }).end(body === undefined ? "" : JSON.stringify(body));
  });
  server.on("connection", (socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  base = `http://${host}:${(server.address() as AddressInfo).port}`;
  closers.push(async () => {
    for (const socket of sockets) socket.destroy();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });
  return { base, paths };
}

function authorizationServerMetadata(issuer: string, endpoints: string) {
  return {
    issuer,
    authorization_endpoint: `${endpoints}/authorize`,
    token_endpoint: `${endpoints}/token`,
    response_types_supported: ["code"],
    code_challenge_methods_supported: ["S256"],
  };
}

/** A loopback MCP server whose protected-resource metadata names `issuer` and whose own issuer metadata names `endpoints`. */
async function startMcpServer(options: { hint?: (base: string) => string; issuer?: (base: string) => string; endpoints?: (base: string) => string }) {
  return startServer("127.0.0.1", (path, base) => {
    const issuer = options.issuer?.(base) ?? `${base}/as`;
    if (path === "/mcp") return { status: 401, headers: { "www-authenticate": `Bearer resource_metadata="${options.hint?.(base) ?? `${base}/.well-known/oauth-protected-resource/mcp`}"` } };
    if (path === "/.well-known/oauth-protected-resource/mcp") return { status: 200, body: { resource: `${base}/mcp`, authorization_servers: [issuer] } };
    if (path === "/.well-known/oauth-authorization-server/as") return { status: 200, body: authorizationServerMetadata(issuer, options.endpoints?.(base) ?? `${base}/as`) };
    return { status: 404 };
  });
}

// Every server is on loopback; the "other origins" are loopback aliases that must see no request.
describe("discoverOAuthMetadata URL rule", () => {
  it("discovers over plain http on the origin of an MCP server on loopback", async () => {
    const oauth = await startLocalOAuthServer();
    closers.push(() => oauth.close());
    const discovered = await discoverOAuthMetadata({ serverUrl: oauth.resourceUrl, timeoutMs: 5000 });
    expect(discovered.authorizationServer.issuer).toBe(oauth.issuer);
  });

  it("does not follow a resource-metadata hint to another origin, and falls back to its own well-known URL", async () => {
    const other = await startServer("127.0.0.2", () => ({ status: 200, body: {} }));
    const mcp = await startMcpServer({ hint: () => `${other.base}/.well-known/oauth-protected-resource` });
    const discovered = await discoverOAuthMetadata({ serverUrl: `${mcp.base}/mcp`, timeoutMs: 5000 });
    expect(discovered.protectedResourceUrl).toBe(`${mcp.base}/.well-known/oauth-protected-resource/mcp`);
    expect(other.paths).toEqual([]);
  });

  it("refuses an authorization server on another origin without contacting it, naming the rule", async () => {
    const other = await startServer("127.0.0.2", () => ({ status: 200, body: {} }));
    const mcp = await startMcpServer({ issuer: () => `${other.base}/as` });
    const error = await discoverOAuthMetadata({ serverUrl: `${mcp.base}/mcp`, timeoutMs: 5000 }).catch((caught: unknown) => caught);
    expect(GatewayError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ code: "upstream_error", status: 502 });
    expect((error as Error).message).toBe(
      `The authorization server was not contacted. The MCP server named an OAuth URL on ${other.base}, outside its own origin ${mcp.base}: ` +
        "OAuth discovery only uses the MCP server's own origin unless the other origin is listed in DASHBOARD_MCP_OAUTH_ORIGINS.",
    );
    expect(other.paths).toEqual([]);
  });

  it("uses another origin once it is configured", async () => {
    const other = await startServer("127.0.0.2", (path, base) =>
      path === "/.well-known/oauth-authorization-server/as" ? { status: 200, body: authorizationServerMetadata(`${base}/as`, `${base}/as`) } : { status: 404 },
    );
    const mcp = await startMcpServer({ issuer: () => `${other.base}/as` });
    const discovered = await discoverOAuthMetadata({ serverUrl: `${mcp.base}/mcp`, timeoutMs: 5000, allowedOrigins: [other.base] });
    expect(discovered.authorizationServer.token_endpoint).toBe(`${other.base}/as/token`);
    expect(other.paths).toEqual(["/.well-known/oauth-authorization-server/as"]);
  });

  it("refuses authorization server metadata whose endpoints lie on another origin", async () => {
    const mcp = await startMcpServer({ endpoints: () => "http://127.0.0.2:9/as" });
    const error = await discoverOAuthMetadata({ serverUrl: `${mcp.base}/mcp`, timeoutMs: 5000 }).catch((caught: unknown) => caught);
    expect((error as Error).message).toMatch(/^The authorization server's metadata was refused\. The MCP server named an OAuth URL on http:\/\/127\.0\.0\.2:9, outside its own origin/);
  });
});

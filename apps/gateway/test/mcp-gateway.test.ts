import { randomBytes } from "node:crypto";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import {
  readUsageEventContent,
  beginMcpServerOAuth,
  completeMcpServerOAuth,
  createApiKey,
  createMcpServer,
  createMcpToken,
  createNotificationChannel,
  createOrganization,
  createPolicy,
  createProject,
  deleteMcpServer,
  generateToken,
  getMcpServer,
  getMcpServerTokens,
  hashToken,
  listUsageEvents,
  revokeApiKey,
  revokeMcpToken,
  upsertConnectionByName,
  type Database,
} from "@gateway/db";
import { buildAuthorizationUrl, createPkcePair, discoverOAuthMetadata, exchangeAuthorizationCode, registerOAuthClient } from "@gateway/mcp/oauth";
import { type LocalMcpServer, type LocalOAuthServer, createLocalMcpHandler, startLocalMcpServer, startLocalOAuthServer } from "@gateway/mcp/testing";
import { Client, ProtocolError, SdkHttpError, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { type RunningGateway, startGateway } from "../src/start-gateway.js";
import { type MockProvider, startMockProvider } from "./support/mock-provider.js";
import { type CrashingMcpServer, startCrashingMcpServer } from "./support/start-crashing-mcp-server.js";
import { createTemporaryDirectory } from "./support/temporary-directory.js";

// One gateway on a real SQLite database (triggers, snapshot reloads, grant writes), three MCP
// servers (one behind a local OAuth authorization server), one in a process that crashes, and a
// mock OpenAI-compatible provider for the chat tool loop. Clients are the official MCP SDK's.

const secretKey = randomBytes(32).toString("base64");
const callTimeoutMs = 1500;

let gateway: RunningGateway<Database>;
let database: Database;
let directory: { path: string; remove(): void };
let authorization: LocalOAuthServer;
let docs: LocalMcpServer;
let crashy: CrashingMcpServer;
let provider: MockProvider;
let receiver: { url: string; events: { type: string; data: Record<string, unknown> }[]; close(): Promise<void> };
let organizationId: string;
let projectId: string;
let apiKey: { id: string; secret: string };
let ticketsServerId: string;
const createdIssues: { title: unknown; token: string | undefined }[] = [];
const ticketsTokens: (string | undefined)[] = [];
const clients: Client[] = [];
/** What the gateway logged, with the level. */
const logged: { level: "info" | "error"; message: string; fields?: Record<string, unknown> }[] = [];

/** An official MCP client on the gateway's endpoint; `legacy` speaks 2025-11-25 (`initialize`), `auto` the 2026-07-28 revision. */
async function connect(credential: string, mode: "legacy" | "auto" = "auto"): Promise<Client> {
  const client = new Client({ name: "gateway-test", version: "1.0.0" }, { versionNegotiation: { mode } });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${gateway.url}/mcp`), { requestInit: { headers: { authorization: `Bearer ${credential}` } } }));
  clients.push(client);
  return client;
}

const textOf = (result: unknown) => ((result as { content: { type: string; text?: string }[] }).content[0]?.text ?? "");

async function protocolErrorOf(work: Promise<unknown>): Promise<ProtocolError> {
  try {
    await work;
  } catch (error) {
    if (ProtocolError.isInstance(error)) return error;
    throw error;
  }
  throw new Error("expected a JSON-RPC error");
}

/** Registers the OAuth-protected server and runs the authorization the dashboard runs (discovery, registration, PKCE code flow). */
async function connectTicketsServer(): Promise<string> {
  const secretBox = { secretBox: gateway.secretBox };
  const server = await createMcpServer(database, { organizationId, name: "tickets", url: authorization.resourceUrl, transport: "streamable_http", authKind: "oauth" }, secretBox);
  const discovered = await discoverOAuthMetadata({ serverUrl: server.url, timeoutMs: 5000 });
  const redirectUri = "http://127.0.0.1:9/api/mcp/oauth/callback";
  const client = await registerOAuthClient({
    registrationEndpoint: discovered.authorizationServer.registration_endpoint!,
    redirectUri,
    clientName: "AI Gateway (test)",
    authMethodsSupported: discovered.authorizationServer.token_endpoint_auth_methods_supported,
    scope: null,
    timeoutMs: 5000,
  });
  const pkce = createPkcePair();
  const state = generateToken("st_");
  await beginMcpServerOAuth(
    database,
    {
      organizationId,
      id: server.id,
      stateHash: hashToken(state),
      codeVerifier: pkce.verifier,
      redirectUri,
      expiresAt: new Date(Date.now() + 60_000),
      metadata: { resource: discovered.resource, issuer: discovered.authorizationServer.issuer, token_endpoint: discovered.authorizationServer.token_endpoint },
      clientRegistration: { ...client.registration, client_id: client.clientId, token_endpoint_auth_method: client.tokenEndpointAuthMethod, redirect_uri: redirectUri },
      clientSecret: client.clientSecret,
    },
    secretBox,
  );
  const redirect = await fetch(buildAuthorizationUrl({ authorizationEndpoint: discovered.authorizationServer.authorization_endpoint, clientId: client.clientId, redirectUri, state, codeChallenge: pkce.challenge, scope: null, resource: discovered.resource }), { redirect: "manual" });
  const code = new URL(redirect.headers.get("location")!).searchParams.get("code")!;
  const tokens = await exchangeAuthorizationCode({ tokenEndpoint: discovered.authorizationServer.token_endpoint, client, code, redirectUri, codeVerifier: pkce.verifier, resource: discovered.resource, timeoutMs: 5000 });
  await completeMcpServerOAuth(
    database,
    {
      organizationId,
      id: server.id,
      tokens: { accessToken: tokens.access_token, refreshToken: tokens.refresh_token ?? null, tokenType: tokens.token_type },
      expiresAt: new Date(Date.now() + (tokens.expires_in ?? 3600) * 1000),
      userId: null,
      grant: { name: "tickets (OAuth)", prefix: tokens.access_token.slice(0, 6), scopes: [] },
    },
    secretBox,
  );
  return server.id;
}

/** Waits until the gateway serves `check` true (snapshot reloads poll every 100 ms); resolves with the elapsed ms. */
async function within(ms: number, check: () => Promise<boolean>): Promise<number> {
  const started = Date.now();
  while (Date.now() - started < ms) {
    if (await check()) return Date.now() - started;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error(`not within ${ms} ms`);
}

async function startReceiver() {
  const events: { type: string; data: Record<string, unknown> }[] = [];
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      events.push(JSON.parse(Buffer.concat(chunks).toString("utf8")) as { type: string; data: Record<string, unknown> });
      response.writeHead(200).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    events,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

beforeAll(async () => {
  directory = createTemporaryDirectory();
  receiver = await startReceiver();
  provider = await startMockProvider(() => ({ status: 500, body: { error: { message: "no answer configured" } } }));
  authorization = await startLocalOAuthServer({
    resource: createLocalMcpHandler({
      name: "tickets",
      authorize: (token) => {
        ticketsTokens.push(token);
        return authorization.isValidAccessToken(token);
      },
      resourceMetadataUrl: "",
      tools: [
        {
          name: "create_issue",
          description: "Create a ticket",
          inputSchema: { type: "object", properties: { title: { type: "string" } }, required: ["title"] },
          handler: (input) => {
            createdIssues.push({ title: input.title, token: ticketsTokens.at(-1) });
            return { content: [{ type: "text", text: `Created ticket #${createdIssues.length}: ${String(input.title)}` }] };
          },
        },
        { name: "delete_issue", handler: () => ({ content: [{ type: "text", text: "deleted" }] }) },
        { name: "search", handler: () => ({ content: [{ type: "text", text: "ticket results" }] }) },
      ],
    }),
  });
  docs = await startLocalMcpServer({
    name: "docs",
    tools: [
      { name: "search", handler: (input) => ({ content: [{ type: "text", text: `docs about ${String(input.query)}` }] }) },
      { name: "slow", handler: (_input, { signal }) => new Promise((resolve) => {
        const timer = setTimeout(() => resolve({ content: [{ type: "text", text: "too late" }] }), 10_000);
        signal.addEventListener("abort", () => clearTimeout(timer));
      }) },
      { name: "garbage", handler: () => ({ content: [] }) },
    ],
    prompts: [{ name: "summarize", arguments: [{ name: "topic", required: true }], text: (input) => `Summarize ${input.topic}.` }],
    resources: [{ uri: "docs://handbook", name: "Handbook", text: "Be kind." }],
    // A malformed JSON-RPC answer: a result that is not an object.
    intercept: (message, response) => {
      if (message.method !== "tools/call" || (message.params as { name?: string }).name !== "garbage") return false;
      response.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ jsonrpc: "2.0", id: message.id, result: "not an object" }));
      return true;
    },
  });
  crashy = await startCrashingMcpServer();

  const logger = {
    info: (message: string, fields?: Record<string, unknown>) => void logged.push({ level: "info", message, ...(fields === undefined ? {} : { fields }) }),
    error: (message: string, _error?: unknown, fields?: Record<string, unknown>) => void logged.push({ level: "error", message, ...(fields === undefined ? {} : { fields }) }),
  };
  gateway = await startGateway({
    env: { GATEWAY_SECRET_KEY: secretKey },
    settings: {
      port: 0,
      host: "127.0.0.1",
      dataDirectory: directory.path,
      snapshotPollMs: 100,
      usageFlushMs: 20,
      deliveryFlushMs: 50,
      deliveryRefreshMs: 1000,
      mcpTimeoutMs: callTimeoutMs,
      mcpCatalogTtlMs: 0,
    },
    logger,
  });
  database = gateway.database;
  const organization = await createOrganization(database, { name: "Mcp Corp", slug: `mcp-${randomBytes(3).toString("hex")}` });
  organizationId = organization.id;
  const project = await createProject(database, { organizationId, name: "agents", captureContent: true });
  projectId = project.id;
  const created = await createApiKey(database, { organizationId, projectId, name: "agent key" });
  apiKey = { id: created.apiKey.id, secret: created.secret };
  await upsertConnectionByName(database, { organizationId, name: "mock", kind: "openai", baseUrl: `${provider.baseUrl}/v1`, models: ["openai/gpt-4o-mini"], upstreamModelNames: { "openai/gpt-4o-mini": "gpt-4o-mini" } }, { secretBox: gateway.secretBox });
  await createNotificationChannel(database, { organizationId, name: "ops", kind: "webhook", config: { kind: "webhook", url: `${receiver.url}/hooks`, secret: "whsec" } }, { secretBox: gateway.secretBox });
  ticketsServerId = await connectTicketsServer();
  await createMcpServer(database, { organizationId, name: "docs", url: docs.url, transport: "streamable_http", authKind: "none" }, { secretBox: gateway.secretBox });
  await createMcpServer(database, { organizationId, name: "crashy", url: crashy.url, transport: "streamable_http", authKind: "none" }, { secretBox: gateway.secretBox });
  await gateway.runtime.snapshots.refresh();
  await gateway.runtime.refreshDeliveryTargets();
}, 60_000);

afterAll(async () => {
  for (const client of clients) await client.close().catch(() => undefined);
  await gateway?.close();
  await crashy?.stop();
  await Promise.all([authorization?.close(), docs?.close(), provider?.close(), receiver?.close()]);
  directory?.remove();
});

describe("the MCP endpoint", () => {
  it("answers an unauthenticated request with 401, a WWW-Authenticate challenge and protected-resource metadata", async () => {
    const response = await fetch(`${gateway.url}/mcp`, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json, text/event-stream" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list", params: {} }),
    });
    expect(response.status).toBe(401);
    expect(response.headers.get("x-request-id")).toMatch(/^req_/);
    const challenge = response.headers.get("www-authenticate")!;
    expect(challenge).toMatch(/^Bearer /);
    const metadataUrl = /resource_metadata="([^"]+)"/.exec(challenge)![1]!;
    expect(metadataUrl).toBe(`${gateway.url}/.well-known/oauth-protected-resource/mcp`);
    const metadata = await (await fetch(metadataUrl)).json();
    expect(metadata).toMatchObject({ resource: `${gateway.url}/mcp`, bearer_methods_supported: ["header"] });
    // A wrong credential is an invalid token; the official client reports the 401.
    const wrong = await fetch(`${gateway.url}/mcp`, { method: "POST", headers: { authorization: "Bearer gak_wrong_0123456789abcdef", "content-type": "application/json" }, body: "{}" });
    expect(wrong.headers.get("www-authenticate")).toContain('error="invalid_token"');
    await expect(connect("gak_wrong_0123456789abcdef")).rejects.toSatisfy((error: unknown) => SdkHttpError.isInstance(error) && error.status === 401);
  });

  it.each(["legacy", "auto"] as const)("lists the tools, prompts and resources of every server under collision-free names (%s era)", async (mode) => {
    const client = await connect(apiKey.secret, mode);
    expect(client.getProtocolEra()).toBe(mode === "auto" ? "modern" : "legacy");
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name)).toEqual([
      "crashy__crash",
      "crashy__ping",
      "docs__garbage",
      "docs__search",
      "docs__slow",
      "tickets__create_issue",
      "tickets__delete_issue",
      "tickets__search",
    ]);
    expect(tools.find((tool) => tool.name === "tickets__create_issue")).toMatchObject({ description: "Create a ticket", inputSchema: { required: ["title"] } });
    const { prompts } = await client.listPrompts();
    expect(prompts.map((prompt) => prompt.name)).toEqual(["docs__summarize"]);
    const prompt = await client.getPrompt({ name: "docs__summarize", arguments: { topic: "MCP" } });
    expect(prompt.messages[0]).toMatchObject({ role: "user", content: { type: "text", text: "Summarize MCP." } });
    const { resources } = await client.listResources();
    expect(resources).toEqual([expect.objectContaining({ uri: "mcp-gateway://docs/docs%3A%2F%2Fhandbook", name: "Handbook" })]);
    const read = await client.readResource({ uri: resources[0]!.uri });
    expect(read.contents[0]).toMatchObject({ text: "Be kind." });
  });

  it("calls tools with the server's stored grant and records one usage event per call, with content when the project captures it", async () => {
    const client = await connect(apiKey.secret);
    const result = await client.callTool({ name: "tickets__create_issue", arguments: { title: "Printer on fire" } });
    expect(textOf(result)).toMatch(/^Created ticket #\d+: Printer on fire$/);
    const stored = await getMcpServerTokens(database, organizationId, ticketsServerId, { secretBox: gateway.secretBox });
    expect(createdIssues.at(-1)).toEqual({ title: "Printer on fire", token: stored!.accessToken });
    expect(textOf(await client.callTool({ name: "docs__search", arguments: { query: "kindness" } }))).toBe("docs about kindness");

    const events = await vi.waitFor(
      async () => {
        const page = await listUsageEvents(database, { organizationId, limit: 50 });
        const calls = page.data.filter((event) => event.endpoint === "mcp" && event.model === "create_issue");
        if (calls.length === 0) throw new Error("no usage event yet");
        return calls;
      },
      { timeout: 5000, interval: 50 },
    );
    expect(events[0]).toMatchObject({
      endpoint: "mcp",
      provider: "tickets",
      model: "create_issue",
      requestedModel: "tickets__create_issue",
      apiKeyId: apiKey.id,
      projectId,
      status: 200,
      errorCode: null,
      costMicros: 0,
    });
    expect(events[0]!.latencyMs).toBeGreaterThanOrEqual(0);
    // The content is stored apart from the usage row, encrypted, and read back with the secret box.
    expect(await readUsageEventContent(database, gateway.secretBox, { organizationId, requestId: events[0]!.requestId })).toMatchObject({
      request: { kind: "tool", name: "tickets__create_issue", arguments: { title: "Printer on fire" } },
      response: { content: [{ type: "text", text: expect.stringContaining("Printer on fire") }] },
      truncated: false,
    });
  });

  it("leaves a denied tool out of the list and refuses to call it, within a second of the policy change", async () => {
    const client = await connect(apiKey.secret);
    await createPolicy(database, { organizationId, scope: "key", scopeId: apiKey.id, deny: ["mcp:tickets/delete_*"] });
    const elapsed = await within(1000, async () => !(await client.listTools()).tools.some((tool) => tool.name === "tickets__delete_issue"));
    expect(elapsed).toBeLessThan(1000);
    const refused = await protocolErrorOf(client.callTool({ name: "tickets__delete_issue", arguments: {} }));
    expect(refused.code).toBe(-32602);
    expect(refused.message).toContain("mcp:tickets/delete_issue");
    expect(refused.data).toMatchObject({ code: "tool_not_allowed", rule: { effect: "deny", pattern: "mcp:tickets/delete_*" } });
    expect((await protocolErrorOf(client.callTool({ name: "nowhere__tool", arguments: {} }))).code).toBe(-32602);
    // The refusal is recorded too.
    const requestId = (refused.data as { request_id: string }).request_id;
    await vi.waitFor(async () => {
      const page = await listUsageEvents(database, { organizationId, limit: 50 });
      expect(page.data.find((event) => event.requestId === requestId)).toMatchObject({ status: 403, errorCode: "tool_not_allowed", requestedModel: "tickets__delete_issue" });
    }, { timeout: 5000, interval: 50 });
  });

  it("serves an MCP token as its key, narrowed to its server, and refuses it within a second of its revocation", async () => {
    const secret = generateToken("gmt_");
    const token = await createMcpToken(database, { organizationId, apiKeyId: apiKey.id, serverId: ticketsServerId, name: "IDE", prefix: secret.slice(0, 8), tokenHash: hashToken(secret) });
    await within(1000, async () => {
      try {
        await connect(secret);
        return true;
      } catch {
        return false;
      }
    });
    const client = await connect(secret);
    const names = (await client.listTools()).tools.map((tool) => tool.name);
    expect(names).toEqual(["tickets__create_issue", "tickets__search"]);
    expect((await protocolErrorOf(client.callTool({ name: "docs__search", arguments: {} }))).data).toMatchObject({ code: "tool_not_found" });

    await revokeMcpToken(database, { organizationId, id: token.id });
    const elapsed = await within(1000, async () => {
      try {
        await client.callTool({ name: "tickets__search", arguments: {} });
        return false;
      } catch (error) {
        return SdkHttpError.isInstance(error) && error.status === 401;
      }
    });
    expect(elapsed).toBeLessThan(1000);
  });

  it("refuses a revoked key's token and a deleted server's tools within a second", async () => {
    const project = await createProject(database, { organizationId, name: "short-lived" });
    const created = await createApiKey(database, { organizationId, projectId: project.id, name: "to revoke" });
    const secret = generateToken("gmt_");
    await createMcpToken(database, { organizationId, apiKeyId: created.apiKey.id, name: "cli", prefix: secret.slice(0, 8), tokenHash: hashToken(secret) });
    await within(1000, async () => (await fetch(`${gateway.url}/mcp`, { method: "POST", headers: { authorization: `Bearer ${secret}`, "content-type": "application/json", accept: "application/json, text/event-stream" }, body: "{}" })).status !== 401);
    await revokeApiKey(database, { organizationId, id: created.apiKey.id });
    expect(
      await within(1000, async () => (await fetch(`${gateway.url}/mcp`, { method: "POST", headers: { authorization: `Bearer ${secret}`, "content-type": "application/json" }, body: "{}" })).status === 401),
    ).toBeLessThan(1000);

    const temporary = await startLocalMcpServer({ name: "temporary", tools: [{ name: "echo", handler: () => ({ content: [{ type: "text", text: "echo" }] }) }] });
    try {
      const record = await createMcpServer(database, { organizationId, name: "temporary", url: temporary.url, transport: "streamable_http", authKind: "none" }, { secretBox: gateway.secretBox });
      const client = await connect(apiKey.secret);
      await within(1000, async () => (await client.listTools()).tools.some((tool) => tool.name === "temporary__echo"));
      expect(textOf(await client.callTool({ name: "temporary__echo", arguments: {} }))).toBe("echo");
      await deleteMcpServer(database, organizationId, record.id);
      const elapsed = await within(1000, async () => {
        try {
          await client.callTool({ name: "temporary__echo", arguments: {} });
          return false;
        } catch (error) {
          return ProtocolError.isInstance(error) && (error.data as { code?: string }).code === "tool_not_found";
        }
      });
      expect(elapsed).toBeLessThan(1000);
    } finally {
      await temporary.close();
    }
  });

  it("refreshes an expired grant with the stored refresh token, persists the new one encrypted, and reports a grant that cannot be refreshed", async () => {
    const client = await connect(apiKey.secret);
    const before = await getMcpServerTokens(database, organizationId, ticketsServerId, { secretBox: gateway.secretBox });
    const refreshes = () => authorization.tokenRequests.filter((form) => form.get("grant_type") === "refresh_token").length;
    const refreshesBefore = refreshes();

    // The authorization server ended the access token early: the upstream answers 401, the gateway refreshes once and retries.
    authorization.expireAccessTokens();
    expect(textOf(await client.callTool({ name: "tickets__create_issue", arguments: { title: "After expiry" } }))).toContain("After expiry");
    expect(refreshes()).toBe(refreshesBefore + 1);
    const after = await getMcpServerTokens(database, organizationId, ticketsServerId, { secretBox: gateway.secretBox });
    expect(after!.accessToken).not.toBe(before!.accessToken);
    expect(after!.refreshToken).not.toBe(before!.refreshToken);
    expect(createdIssues.at(-1)).toEqual({ title: "After expiry", token: after!.accessToken });
    const row = await database.prisma.mcpServer.findUniqueOrThrow({ where: { id: ticketsServerId } });
    expect(row.tokensCiphertext).not.toContain(after!.accessToken);
    expect(row.tokensExpiresAt!.getTime()).toBeGreaterThan(Date.now() + 3_000_000);

    // The stored expiry passed: the gateway refreshes before calling (the server never sees the old token).
    await database.prisma.mcpServer.update({ where: { id: ticketsServerId }, data: { tokensExpiresAt: new Date(Date.now() - 1000) } });
    await within(1000, async () => gateway.runtime.snapshots.current().snapshot.mcpServers.find((server) => server.id === ticketsServerId)!.accessTokenExpiresAt!.getTime() < Date.now());
    const seenBefore = ticketsTokens.length;
    expect(textOf(await client.callTool({ name: "tickets__create_issue", arguments: { title: "Proactive" } }))).toContain("Proactive");
    expect(refreshes()).toBe(refreshesBefore + 2);
    const proactive = await getMcpServerTokens(database, organizationId, ticketsServerId, { secretBox: gateway.secretBox });
    expect(ticketsTokens.slice(seenBefore).every((token) => token === proactive!.accessToken)).toBe(true);

    // The authorization server revokes the grant: a clear tool error at once, the server marked, a notification.
    authorization.revokeRefreshTokens();
    authorization.expireAccessTokens();
    const started = Date.now();
    const failed = await client.callTool({ name: "tickets__create_issue", arguments: { title: "Never" } });
    expect(Date.now() - started).toBeLessThan(callTimeoutMs);
    expect(failed.isError).toBe(true);
    expect(textOf(failed)).toMatch(/MCP server 'tickets' needs to be authorized again in the dashboard/);
    expect(createdIssues.some((issue) => issue.title === "Never")).toBe(false);
    expect(await getMcpServer(database, organizationId, ticketsServerId)).toMatchObject({ status: "error", statusMessage: expect.stringContaining("invalid_grant") });
    await vi.waitFor(() => expect(receiver.events.find((event) => event.type === "mcp_server.authorization_failed")).toMatchObject({ data: { server_id: ticketsServerId, server_name: "tickets" } }), { timeout: 5000, interval: 50 });
    // Later calls fail the same way without asking the authorization server again.
    const attempts = refreshes();
    expect((await client.callTool({ name: "tickets__search", arguments: {} })).isError).toBe(true);
    expect(refreshes()).toBe(attempts);
    // The other servers keep serving.
    expect(textOf(await client.callTool({ name: "docs__search", arguments: { query: "still up" } }))).toBe("docs about still up");
  });

  it("gives a JSON-RPC error within the deadline when an upstream is slow, answers malformed JSON-RPC or crashes mid-call, and keeps serving", async () => {
    const client = await connect(apiKey.secret);
    let started = Date.now();
    const slow = await protocolErrorOf(client.callTool({ name: "docs__slow", arguments: {} }));
    expect(Date.now() - started).toBeLessThan(callTimeoutMs + 1000);
    expect(slow).toMatchObject({ code: -32603, data: { code: "upstream_timeout", server: "docs" } });

    const garbage = await protocolErrorOf(client.callTool({ name: "docs__garbage", arguments: {} }));
    expect(garbage).toMatchObject({ code: -32603, data: { code: "upstream_error", server: "docs" } });

    expect(textOf(await client.callTool({ name: "crashy__ping", arguments: {} }))).toBe("pong");
    started = Date.now();
    const crashed = await protocolErrorOf(client.callTool({ name: "crashy__crash", arguments: {} }));
    expect(Date.now() - started).toBeLessThan(callTimeoutMs);
    expect(crashed).toMatchObject({ code: -32603, data: { code: "upstream_error", server: "crashy" } });
    await crashy.exited;
    const gone = await protocolErrorOf(client.callTool({ name: "crashy__ping", arguments: {} }));
    expect(gone.data).toMatchObject({ code: "service_unavailable", server: "crashy" });

    // The gateway keeps serving: other servers, and lists without the dead one.
    expect(textOf(await client.callTool({ name: "docs__search", arguments: { query: "after the crash" } }))).toBe("docs about after the crash");
    expect((await client.listTools()).tools.some((tool) => tool.name.startsWith("crashy__"))).toBe(false);
    const failures = (await listUsageEvents(database, { organizationId, limit: 200 })).data.filter((event) => event.endpoint === "mcp" && event.status >= 500);
    expect(failures.map((event) => event.errorCode)).toEqual(expect.arrayContaining(["upstream_timeout", "upstream_error", "service_unavailable"]));
  });

  it("runs a chat tool loop: the model's tool calls are executed through the MCP endpoint", async () => {
    const client = await connect(apiKey.secret);
    const { tools } = await client.listTools();
    const search = tools.find((tool) => tool.name === "docs__search")!;
    provider.override((request) => {
      const body = request.body as { messages: { role: string; content?: string; tool_call_id?: string }[] };
      const toolMessage = body.messages.find((message) => message.role === "tool");
      const message =
        toolMessage === undefined
          ? { role: "assistant", content: null, tool_calls: [{ id: "call_1", type: "function", function: { name: "docs__search", arguments: JSON.stringify({ query: "refunds" }) } }] }
          : { role: "assistant", content: `The docs say: ${toolMessage.content}` };
      return {
        body: {
          id: "chatcmpl-1",
          object: "chat.completion",
          created: 1,
          model: "gpt-4o-mini",
          choices: [{ index: 0, message, finish_reason: toolMessage === undefined ? "tool_calls" : "stop" }],
          usage: { prompt_tokens: 20, completion_tokens: 5, total_tokens: 25 },
        },
      };
    });
    try {
      const messages: Record<string, unknown>[] = [{ role: "user", content: "How do refunds work?" }];
      const chat = async () => {
        const response = await fetch(`${gateway.url}/v1/chat/completions`, {
          method: "POST",
          headers: { authorization: `Bearer ${apiKey.secret}`, "content-type": "application/json" },
          body: JSON.stringify({ model: "mock/openai/gpt-4o-mini", messages, tools: [{ type: "function", function: { name: search.name, description: search.description, parameters: search.inputSchema } }] }),
        });
        expect(response.status).toBe(200);
        return ((await response.json()) as { choices: { message: { content: string | null; tool_calls?: { id: string; function: { name: string; arguments: string } }[] } }[] }).choices[0]!.message;
      };
      // The agent's loop: the model asks for tools, the MCP endpoint runs them, the results go back.
      let answer = await chat();
      let rounds = 0;
      while (answer.tool_calls && rounds < 3) {
        rounds += 1;
        messages.push({ role: "assistant", content: answer.content, tool_calls: answer.tool_calls.map((call) => ({ ...call, type: "function" })) });
        for (const call of answer.tool_calls) {
          const result = await client.callTool({ name: call.function.name, arguments: JSON.parse(call.function.arguments) as Record<string, unknown> });
          messages.push({ role: "tool", tool_call_id: call.id, content: textOf(result) });
        }
        answer = await chat();
      }
      expect(rounds).toBe(1);
      expect(answer.content).toBe("The docs say: docs about refunds");
      const sent = provider.requests.slice(-2).map((request) => request.body as { tools: { function: { name: string } }[]; messages: { role: string; content?: string }[] });
      expect(sent[0]!.tools[0]!.function.name).toBe("docs__search");
      expect(sent[1]!.messages.at(-1)).toEqual({ role: "tool", tool_call_id: "call_1", content: "docs about refunds" });
    } finally {
      provider.override(null);
    }
  });

  it("answers a tool or prompt its server did not list from the catalog (-32602 tool_not_found), without calling the server", async () => {
    const client = await connect(apiKey.secret);
    const callsBefore = docs.handler.requests.filter((request) => request.method === "tools/call" || request.method === "prompts/get").length;
    const tool = await protocolErrorOf(client.callTool({ name: "docs__no_such_tool", arguments: {} }));
    expect(tool.code).toBe(-32602);
    expect(tool.data).toMatchObject({ code: "tool_not_found" });
    const prompt = await protocolErrorOf(client.getPrompt({ name: "docs__no_such_prompt", arguments: {} }));
    expect(prompt.data).toMatchObject({ code: "tool_not_found" });
    expect(docs.handler.requests.filter((request) => request.method === "tools/call" || request.method === "prompts/get")).toHaveLength(callsBefore);
    // A listed tool is still called.
    expect(textOf(await client.callTool({ name: "docs__search", arguments: { query: "listed" } }))).toBe("docs about listed");
  });

  it("never hands a caller the bearer credential it stores for a server, in a result, a list or an error", async () => {
    const bearer = `vault-credential-${randomBytes(12).toString("hex")}`;
    let received: string | undefined;
    const vault = await startLocalMcpServer({
      name: "vault",
      authorize: (token) => {
        received = token;
        return token === bearer;
      },
      tools: [
        {
          name: "whoami",
          description: `Echoes its caller (for example ${bearer}).`,
          handler: () => ({
            content: [{ type: "text", text: `You sent Bearer ${received}; its tail is ${received!.slice(8)}. Example key in a doc: sk-test-AbCdEfGhIjKlMn.` }],
            structuredContent: { token: received, nested: [received!.slice(0, 20)] },
          }),
        },
        {
          name: "fail",
          handler: () => {
            throw new ProtocolError(-32602, `Invalid token ${received}`, { token: received });
          },
        },
      ],
    });
    const record = await createMcpServer(database, { organizationId, name: "vault", url: vault.url, transport: "streamable_http", authKind: "bearer", bearerToken: bearer }, { secretBox: gateway.secretBox });
    try {
      await gateway.runtime.snapshots.refresh();
      const client = await connect(apiKey.secret);
      const listed = (await client.listTools()).tools.find((tool) => tool.name === "vault__whoami")!;
      expect(listed.description).toBe("Echoes its caller (for example [redacted]).");
      const result = await client.callTool({ name: "vault__whoami", arguments: {} });
      expect(received).toBe(bearer);
      expect(textOf(result)).toBe("You sent Bearer [redacted]; its tail is [redacted]. Example key in a doc: sk-test-AbCdEfGhIjKlMn.");
      expect(result.structuredContent).toEqual({ token: "[redacted]", nested: ["[redacted]"] });
      const failed = await protocolErrorOf(client.callTool({ name: "vault__fail", arguments: {} }));
      expect(JSON.stringify({ message: failed.message, data: failed.data })).not.toContain(bearer.slice(6, 20));
      expect(failed.message).toContain("Invalid token [redacted]");
    } finally {
      await deleteMcpServer(database, organizationId, record.id);
      await gateway.runtime.snapshots.refresh();
      await vault.close();
    }
  });

  it("logs a client's malformed requests below error (they are the client's mistake), with their request id", async () => {
    const before = logged.length;
    const requestIds: string[] = [];
    for (const body of [{ jsonrpc: "2.0", id: 1, method: 5 }, { jsonrpc: "1.0", id: 2, method: "tools/list" }]) {
      const response = await fetch(`${gateway.url}/mcp`, {
        method: "POST",
        headers: { authorization: `Bearer ${apiKey.secret}`, "content-type": "application/json", accept: "application/json, text/event-stream" },
        body: JSON.stringify(body),
      });
      expect(response.status).toBeGreaterThanOrEqual(400);
      expect(response.status).toBeLessThan(500);
      requestIds.push(response.headers.get("x-request-id")!);
      await response.text();
    }
    const lines = logged.slice(before);
    expect(lines.filter((line) => line.level === "error")).toEqual([]);
    const refused = lines.filter((line) => line.level === "info" && line.message === "The MCP endpoint refused a request.");
    expect(refused.length).toBeGreaterThanOrEqual(1);
    for (const line of refused) expect(requestIds).toContain(line.fields?.request_id);
  });
});

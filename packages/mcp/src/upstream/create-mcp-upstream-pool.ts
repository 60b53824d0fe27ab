import type { SnapshotMcpServer } from "@gateway/contracts";
import { GatewayError, redactKnownSecretsInValue } from "@gateway/errors";
import type { McpUpstream, McpUpstreamCall } from "@gateway/pipeline";
import { defaultOutboundFetch } from "@gateway/provider-adapters";
import {
  Client,
  SSEClientTransport,
  StreamableHTTPClientTransport,
  type Prompt,
  type Resource,
  type ResourceTemplateType,
  type ServerCapabilities,
  type Tool,
} from "@modelcontextprotocol/client";
import type { McpGrantRefresher } from "../grants/create-mcp-grant-refresher.js";
import { guardUpstreamFetch } from "./guard-upstream-fetch.js";
import { limitUpstreamResponse } from "./limit-upstream-response.js";
import { mapUpstreamError } from "./map-upstream-error.js";

/** What an MCP server offers, as it listed it. */
export interface McpServerCatalog {
  capabilities: ServerCapabilities;
  tools: Tool[];
  prompts: Prompt[];
  resources: Resource[];
  resourceTemplates: ResourceTemplateType[];
}

/** Settings of {@link createMcpUpstreamPool}. */
export interface McpUpstreamPoolSettings {
  grants: McpGrantRefresher;
  /** Longest one call (tools/call, prompts/get, resources/read) may take. */
  callTimeoutMs: number;
  /** Longest connecting to a server, or one of its lists, may take. */
  listTimeoutMs: number;
  /** How long a server's catalog is reused (0: listed again on every request). */
  catalogTtlMs: number;
  /** How the gateway introduces itself upstream. */
  clientInfo?: { name: string; version: string };
  /**
   * The `fetch` of the upstream transports; default the outbound address policy's
   * (`defaultOutboundFetch`: every connection checked on its resolved address, no redirects).
   */
  fetch?: typeof fetch;
  /** Most bytes of one upstream answer read (default: unbounded); past it the exchange fails with `upstream_error`. */
  maxResponseBytes?: number;
  clock?: () => number;
}

/** The gateway's clients of the registered MCP servers: one connection per server, reused. */
export interface McpUpstreamPool extends McpUpstream {
  /** The server's tools, prompts, resources and resource templates (cached for `catalogTtlMs`). */
  catalog(server: SnapshotMcpServer): Promise<McpServerCatalog>;
  /** Closes every connection. */
  close(): Promise<void>;
}

interface Connection {
  key: string;
  /** The snapshot's server the credential is read from (updated on every use). */
  server: SnapshotMcpServer;
  ready: Promise<Client>;
  client: Client;
  closed: boolean;
  /** The credential last sent upstream (a refreshed one may not be in the snapshot yet). */
  lastToken: string | null;
}

/** Hop-by-hop fields of a result: the gateway's own MCP server sets its own. */
const hopFields = new Set(["resultType", "ttlMs", "cacheScope"]);

/**
 * Creates the pool of upstream MCP clients (the official SDK's `Client` over Streamable HTTP, or
 * the deprecated HTTP+SSE transport for servers registered with `sse`). Each server gets one
 * connection, negotiated once (`server/discover` for 2026-07-28 servers, the `initialize`
 * handshake for earlier ones) and reused by every caller; it is replaced when the server's URL
 * or transport changes, or when it broke. The credential is read per HTTP request from the grant
 * refresher (refreshed before it expires); a 401 renews it once and retries. Every exchange is
 * bounded (`callTimeoutMs`, `listTimeoutMs`, the caller's deadline and abort), and a stream that
 * ends without its answer fails the call at once: a slow, crashed or malformed server gives the
 * caller an error within its deadline, and the pool keeps serving the others.
 */
export function createMcpUpstreamPool(settings: McpUpstreamPoolSettings): McpUpstreamPool {
  const clock = settings.clock ?? Date.now;
  const connections = new Map<string, Connection>();
  const catalogs = new Map<string, { key: string; expiresAt: number; value: Promise<McpServerCatalog> }>();
  const baseFetch = settings.fetch ?? defaultOutboundFetch();
  const upstreamFetch = guardUpstreamFetch(settings.maxResponseBytes === undefined ? baseFetch : limitUpstreamResponse(baseFetch, settings.maxResponseBytes));
  const clientInfo = settings.clientInfo ?? { name: "ai-gateway", version: "0.1.0" };

  const dropConnection = (connection: Connection) => {
    if (connection.closed) return;
    connection.closed = true;
    if (connections.get(connection.server.id) === connection) connections.delete(connection.server.id);
    catalogs.delete(connection.server.id);
    void connection.client.close().catch(() => undefined);
  };

  const connect = (server: SnapshotMcpServer): Connection => {
    const key = `${server.transport}\n${server.url}`;
    const existing = connections.get(server.id);
    if (existing !== undefined && existing.key === key && !existing.closed) {
      existing.server = server;
      return existing;
    }
    if (existing !== undefined) dropConnection(existing);
    const connection: Connection = {
      key,
      server,
      closed: false,
      lastToken: null,
      // HTTP+SSE servers predate 2026-07-28 (and a probe over that transport cannot fall back): no probe.
      client: new Client(clientInfo, {
        versionNegotiation: server.transport === "sse" ? { mode: "legacy" } : { mode: "auto", probe: { timeoutMs: settings.listTimeoutMs } },
      }),
      ready: Promise.resolve(undefined as unknown as Client),
    };
    const authProvider =
      server.authKind === "none"
        ? undefined
        : {
            token: async () => (connection.lastToken = await settings.grants.accessTokenFor(connection.server)) ?? undefined,
            onUnauthorized: async () => void (connection.lastToken = await settings.grants.renewAfterRejection(connection.server, connection.lastToken)),
          };
    const url = new URL(server.url);
    const transport =
      server.transport === "sse"
        ? new SSEClientTransport(url, { ...(authProvider ? { authProvider } : {}), fetch: upstreamFetch })
        : new StreamableHTTPClientTransport(url, { ...(authProvider ? { authProvider } : {}), fetch: upstreamFetch });
    connection.client.onclose = () => dropConnection(connection);
    connection.ready = connection.client.connect(transport, { timeout: settings.listTimeoutMs }).then(
      () => connection.client,
      (error: unknown) => {
        dropConnection(connection);
        throw error;
      },
    );
    connections.set(server.id, connection);
    return connection;
  };

  /**
   * Runs one exchange on the server's connection; a connection that failed under it is replaced
   * next time. What the server answers (a result, a catalog, an error's text) reaches callers
   * without the credential the gateway holds for it: a server that echoes the bearer token it
   * received (or a part of it) never hands it to a caller.
   */
  const exchange = async <Result>(server: SnapshotMcpServer, run: (client: Client) => Promise<Result>): Promise<Result> => {
    const connection = connect(server);
    try {
      const result = await run(await connection.ready);
      return server.authKind === "none" ? result : redactKnownSecretsInValue(result, credentialsOf(server, connection));
    } catch (error) {
      const mapped = mapUpstreamError(error, server, credentialsOf(server, connection));
      // A crash, a broken stream, an unreachable server: connect again next time. The server's own
      // JSON-RPC error, a timeout, a refused credential or the caller's abort leave it healthy.
      if (GatewayError.isInstance(mapped) && (mapped.code === "service_unavailable" || (mapped.code === "upstream_error" && mapped.details?.jsonrpc_error === undefined))) {
        dropConnection(connection);
      }
      throw mapped;
    }
  };

  const listCatalog = (server: SnapshotMcpServer): Promise<McpServerCatalog> =>
    exchange(server, async (client) => {
      const capabilities = client.getServerCapabilities() ?? {};
      const options = { timeout: settings.listTimeoutMs, maxTotalTimeout: settings.listTimeoutMs };
      const [tools, prompts, resources, resourceTemplates] = await Promise.all([
        capabilities.tools ? client.listTools(undefined, options).then((answer) => answer.tools) : [],
        capabilities.prompts ? client.listPrompts(undefined, options).then((answer) => answer.prompts) : [],
        capabilities.resources ? client.listResources(undefined, options).then((answer) => answer.resources) : [],
        capabilities.resources ? client.listResourceTemplates(undefined, options).then((answer) => answer.resourceTemplates).catch(() => []) : [],
      ]);
      return { capabilities, tools, prompts, resources, resourceTemplates };
    });

  return {
    async call(call: McpUpstreamCall) {
      const timeout = Math.min(settings.callTimeoutMs, call.deadline - clock());
      if (timeout <= 0) throw new GatewayError("upstream_timeout", { message: `The MCP server '${call.server.name}' was not called: the deadline passed.` });
      const options = { signal: call.signal, timeout, maxTotalTimeout: timeout };
      const prompt = call.kind === "prompt" ? promptArguments(call.arguments) : null;
      const result = await exchange<unknown>(call.server, (client) => {
        if (call.kind === "tool") return client.callTool({ name: call.name, arguments: call.arguments }, options);
        if (prompt !== null) return client.getPrompt({ name: call.name, arguments: prompt }, options);
        return client.readResource({ uri: call.name }, { ...options, cacheMode: "bypass" });
      });
      return withoutHopFields(result);
    },
    catalog(server) {
      const key = `${server.transport}\n${server.url}\n${server.accessToken ?? ""}`;
      const cached = catalogs.get(server.id);
      if (cached !== undefined && cached.key === key && cached.expiresAt > clock()) return cached.value;
      const value = listCatalog(server);
      catalogs.set(server.id, { key, expiresAt: clock() + settings.catalogTtlMs, value });
      value.catch(() => {
        if (catalogs.get(server.id)?.value === value) catalogs.delete(server.id);
      });
      return value;
    },
    async close() {
      const open = [...connections.values()];
      connections.clear();
      catalogs.clear();
      await Promise.all(open.map(async (connection) => {
        connection.closed = true;
        await connection.client.close().catch(() => undefined);
      }));
    },
  };
}

/** Every credential the gateway may have sent the server (the snapshot's, and one refreshed since), each once. */
function credentialsOf(server: SnapshotMcpServer, connection: Connection): string[] {
  const credentials: string[] = [];
  for (const credential of [server.accessToken, connection.server.accessToken, connection.lastToken]) {
    if (credential !== null && !credentials.includes(credential)) credentials.push(credential);
  }
  return credentials;
}

/** Prompt arguments are strings on the wire: anything else is refused before the call. */
function promptArguments(values: Record<string, unknown>): Record<string, string> {
  const strings: Record<string, string> = {};
  for (const [name, value] of Object.entries(values)) {
    if (typeof value !== "string") throw new GatewayError("invalid_request", { message: `Prompt argument '${name}' must be a string.`, param: `arguments.${name}` });
    strings[name] = value;
  }
  return strings;
}

function withoutHopFields(result: unknown): unknown {
  if (typeof result !== "object" || result === null || Array.isArray(result)) return result;
  const copy: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(result)) {
    if (hopFields.has(key)) continue;
    if (key === "_meta" && typeof value === "object" && value !== null) {
      const meta = Object.fromEntries(Object.entries(value).filter(([name]) => !name.startsWith("io.modelcontextprotocol/")));
      if (Object.keys(meta).length > 0) copy._meta = meta;
      continue;
    }
    copy[key] = value;
  }
  return copy;
}

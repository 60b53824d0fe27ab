import { AsyncLocalStorage } from "node:async_hooks";
import type { IncomingMessage, ServerResponse } from "node:http";
import type { SnapshotMcpServer } from "@gateway/contracts";
import { normalizeError } from "@gateway/errors";
import {
  type CallerIdentity,
  type CompiledSnapshot,
  type McpCallRequest,
  type PipelineDependencies,
  type RequestHeaders,
  authenticateMcpCaller,
  createMcpCallEndpoint,
  generateRequestId,
  isMcpServerUsable,
  runInferenceCall,
  servedMcpName,
  servedMcpResourceTemplate,
  servedMcpResourceUri,
} from "@gateway/pipeline";
import { type McpCapabilityKind, evaluateMcpAccess } from "@gateway/policy-engine";
import { callAbortFollowing } from "@gateway/provider-adapters";
import { type AuthInfo, type McpRequestContext, Server, createMcpHandler } from "@modelcontextprotocol/server";
import type { McpServerCatalog, McpUpstreamPool } from "../upstream/create-mcp-upstream-pool.js";
import { answerMcpError } from "./answer-mcp-error.js";
import { toWebRequest, writeWebResponse } from "./web-request-bridge.js";

/** Settings of {@link createMcpGateway}. */
export interface McpGatewaySettings {
  /** The pipeline the MCP calls run on (the same as the inference endpoints'). */
  dependencies: PipelineDependencies;
  upstream: McpUpstreamPool;
  /** The gateway's public base URL (`GATEWAY_PUBLIC_URL`); unset: `http://` + the request's `Host`. */
  publicUrl?: string | undefined;
  /** Browser origins allowed to call the endpoint; a request with another `Origin` gets 403. Requests without `Origin` (desktop and IDE clients) always pass. */
  allowedOrigins?: readonly string[];
  /** The path of the endpoint (default `/mcp`). */
  path?: string;
  /** How the gateway's MCP server introduces itself. */
  serverInfo?: { name: string; version: string };
  /** Largest result of one call relayed to the caller, in bytes of JSON (default 4 MiB, `GATEWAY_MCP_RESULT_LIMIT_BYTES`); larger: a JSON-RPC error. */
  maxResultBytes?: number;
  /** Told about upstream servers left out of a list, requests the endpoint failed to serve (500) and other background failures (never secrets). */
  onError?: (message: string, error: unknown, requestId?: string) => void;
  /**
   * Told why the endpoint refused a request as the client's mistake (a 4xx from the SDK: a
   * malformed JSON-RPC message, an unsupported protocol revision, a missing header): a caller
   * can send these at will, so they are not failures of the gateway (log them below `error`).
   */
  onClientError?: (message: string, error: unknown, requestId: string) => void;
}

/** What the app's HTTP entry knows of a request to the MCP endpoint. */
export interface McpGatewayRequestContext {
  /** The request's `x-request-id` (already set); it names the usage event of the call it carries. */
  requestId: string;
  startedAt: number;
  /** Reads and parses the JSON body (413/415/400 thrown as `GatewayError`s). */
  readBody(): Promise<unknown>;
}

/** The gateway's MCP endpoint. */
export interface McpGateway {
  /** Serves one HTTP request to the MCP endpoint. */
  handle(request: IncomingMessage, response: ServerResponse, context: McpGatewayRequestContext): Promise<void>;
  /** The endpoint's RFC 9728 protected-resource metadata document. */
  protectedResourceMetadata(request: IncomingMessage): Record<string, unknown>;
  close(): Promise<void>;
}

/** What one request's MCP server instance serves, for one caller. */
interface CallerContext {
  identity: CallerIdentity;
  headers: RequestHeaders;
  requestId: string;
  startedAt: number;
  calls: number;
}

const contextKey = "ai-gateway/caller";

/** The request the SDK is serving, for its error reports: collected until the answer's status tells whose mistake they were. */
interface ServingRequest {
  requestId: string;
  /** Reports made while the SDK answered; null once the answer is known (later reports are the gateway's own failures). */
  reports: unknown[] | null;
}

/**
 * The MCP endpoint (Streamable HTTP, the official SDK's stateless handler: the 2026-07-28
 * revision and the 2025 revisions with `initialize`, no sessions, so any instance serves any
 * request). Each request is authenticated first (`Authorization: Bearer` with a gateway API key
 * or an MCP token against the in-memory snapshot; otherwise 401 with a `WWW-Authenticate`
 * challenge naming the protected-resource metadata), then served by an MCP server built for
 * that caller: the tools, prompts and resources of the organization's servers it may use
 * (its MCP token's server only, when narrowed; what its policies allow), under
 * `<server>__<name>` and `mcp-gateway://<server>/...`. Calls run on the pipeline's call skeleton
 * (`createMcpCallEndpoint`): admission, guardrails, the upstream call with its deadline, one
 * usage event. A server that cannot be listed is left out of lists (and reported); it never
 * fails the others.
 */
export function createMcpGateway(settings: McpGatewaySettings): McpGateway {
  const path = settings.path ?? "/mcp";
  const allowedOrigins = new Set((settings.allowedOrigins ?? []).map((origin) => origin.replace(/\/$/, "")));
  const endpoint = createMcpCallEndpoint({ upstream: settings.upstream, ...(settings.maxResultBytes === undefined ? {} : { maxResultBytes: settings.maxResultBytes }) });
  const serverInfo = settings.serverInfo ?? { name: "ai-gateway", version: "0.1.0" };
  const report = settings.onError ?? (() => undefined);
  const reportClientError = settings.onClientError ?? (() => undefined);
  const serving = new AsyncLocalStorage<ServingRequest>();

  const baseUrl = (request: IncomingMessage): string => {
    if (settings.publicUrl) return settings.publicUrl.replace(/\/$/, "");
    return `http://${request.headers.host ?? "localhost"}`;
  };
  const metadataUrl = (request: IncomingMessage) => `${baseUrl(request)}/.well-known/oauth-protected-resource${path}`;

  /** The servers a caller may reach (its organization's, narrowed by its MCP token), usable now. */
  const serversFor = (snapshot: CompiledSnapshot, identity: CallerIdentity): { server: SnapshotMcpServer; prefix: string }[] => {
    const directory = snapshot.mcpServersByOrganization.get(identity.organization.id);
    if (directory === undefined) return [];
    const narrowedTo = identity.mcpToken?.serverId ?? null;
    return directory.servers
      .filter((server) => (narrowedTo === null || server.id === narrowedTo) && isMcpServerUsable(server))
      .map((server) => ({ server, prefix: directory.prefixOf.get(server.id)! }));
  };

  const allowed = (snapshot: CompiledSnapshot, identity: CallerIdentity, server: SnapshotMcpServer, kind: McpCapabilityKind, name: string) =>
    evaluateMcpAccess({
      index: snapshot.access,
      organizationId: identity.organization.id,
      projectId: identity.project.id,
      apiKeyId: identity.apiKey.id,
      server: server.name,
      kind,
      name,
    }).allowed;

  /** Every reachable server's catalog, in name order; servers that fail to list are left out. */
  const catalogs = async (caller: CallerContext) => {
    const snapshot = settings.dependencies.snapshots.current();
    const servers = serversFor(snapshot, caller.identity);
    const listed = await Promise.all(
      servers.map(async ({ server, prefix }) => {
        try {
          return { server, prefix, catalog: await settings.upstream.catalog(server) };
        } catch (error) {
          report(`Listing the MCP server '${server.name}' failed; it is left out of the list.`, error);
          return null;
        }
      }),
    );
    return { snapshot, listed: listed.filter((entry): entry is { server: SnapshotMcpServer; prefix: string; catalog: McpServerCatalog } => entry !== null) };
  };

  const run = async (caller: CallerContext, request: McpCallRequest, signal: AbortSignal): Promise<unknown> => {
    // One HTTP request carries one call; a 2025 batch gets an id per further call.
    caller.calls += 1;
    const requestId = caller.calls === 1 ? caller.requestId : generateRequestId();
    try {
      const answer = await runInferenceCall(
        settings.dependencies,
        {
          requestId,
          startedAt: caller.calls === 1 ? caller.startedAt : Date.now(),
          headers: caller.headers,
          readBody: async () => request,
          identity: (snapshot) => authenticateMcpCaller(caller.headers, snapshot),
          abort: callAbortFollowing(signal),
          throwErrors: true,
        },
        endpoint,
      );
      return answer.kind === "json" ? answer.body : null;
    } catch (error) {
      return answerMcpError(error, { request, requestId });
    }
  };

  const buildServer = (caller: CallerContext): Server => {
    const server = new Server(serverInfo, {
      capabilities: { tools: {}, prompts: {}, resources: {} },
      instructions: "The tools, prompts and resources of the MCP servers registered in the AI gateway; names are '<server>__<name>'.",
    });
    server.setRequestHandler("tools/list", async () => {
      const { snapshot, listed } = await catalogs(caller);
      const tools = listed.flatMap(({ server: upstream, prefix, catalog }) =>
        catalog.tools
          .filter((tool) => allowed(snapshot, caller.identity, upstream, "tool", tool.name))
          .map((tool) => ({ ...tool, name: servedMcpName(prefix, tool.name) })),
      );
      return { tools: tools.sort((left, right) => (left.name < right.name ? -1 : 1)) };
    });
    server.setRequestHandler("tools/call", async (request, context) =>
      run(caller, { kind: "tool", name: request.params.name, arguments: request.params.arguments ?? {} }, context.mcpReq.signal) as never,
    );
    server.setRequestHandler("prompts/list", async () => {
      const { snapshot, listed } = await catalogs(caller);
      const prompts = listed.flatMap(({ server: upstream, prefix, catalog }) =>
        catalog.prompts
          .filter((prompt) => allowed(snapshot, caller.identity, upstream, "prompt", prompt.name))
          .map((prompt) => ({ ...prompt, name: servedMcpName(prefix, prompt.name) })),
      );
      return { prompts: prompts.sort((left, right) => (left.name < right.name ? -1 : 1)) };
    });
    server.setRequestHandler("prompts/get", async (request, context) =>
      run(caller, { kind: "prompt", name: request.params.name, arguments: request.params.arguments ?? {} }, context.mcpReq.signal) as never,
    );
    server.setRequestHandler("resources/list", async () => {
      const { snapshot, listed } = await catalogs(caller);
      const resources = listed.flatMap(({ server: upstream, prefix, catalog }) =>
        catalog.resources
          .filter((resource) => allowed(snapshot, caller.identity, upstream, "resource", resource.uri))
          .map((resource) => ({ ...resource, uri: servedMcpResourceUri(prefix, resource.uri) })),
      );
      return { resources };
    });
    server.setRequestHandler("resources/templates/list", async () => {
      const { snapshot, listed } = await catalogs(caller);
      // A template is judged by its own text (`mcp:<server>/resources/<template>`); each read by its URI.
      const resourceTemplates = listed.flatMap(({ server: upstream, prefix, catalog }) =>
        catalog.resourceTemplates
          .filter((template) => allowed(snapshot, caller.identity, upstream, "resource", template.uriTemplate))
          .map((template) => ({ ...template, uriTemplate: servedMcpResourceTemplate(prefix, template.uriTemplate) })),
      );
      return { resourceTemplates };
    });
    server.setRequestHandler("resources/read", async (request, context) =>
      run(caller, { kind: "resource", name: request.params.uri, arguments: {} }, context.mcpReq.signal) as never,
    );
    return server;
  };

  const handler = createMcpHandler((context: McpRequestContext) => buildServer(context.authInfo?.extra?.[contextKey] as CallerContext), {
    legacy: "stateless",
    onerror: (error) => {
      const request = serving.getStore();
      if (request?.reports) request.reports.push(error);
      else report("The MCP endpoint failed to serve a request.", error, request?.requestId);
    },
  });

  /** The SDK's answer to a request, with what it reported on the way: the client's mistakes (4xx) below the gateway's failures (5xx). */
  const serve = async (request: ServingRequest, webRequest: Request, options: Parameters<typeof handler.fetch>[1]): Promise<Response> => {
    const answered = await serving.run(request, () => handler.fetch(webRequest, options));
    const reports = request.reports ?? [];
    request.reports = null;
    for (const error of reports) {
      if (answered.status >= 500) report("The MCP endpoint failed to serve a request.", error, request.requestId);
      else reportClientError("The MCP endpoint refused a request.", error, request.requestId);
    }
    return answered;
  };

  const answer = (response: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) => {
    response.writeHead(status, { "content-type": "application/json", ...headers }).end(JSON.stringify(body));
  };

  return {
    async handle(request, response, context) {
      const origin = request.headers.origin;
      if (origin !== undefined && !allowedOrigins.has(origin.replace(/\/$/, ""))) {
        answer(response, 403, { jsonrpc: "2.0", error: { code: -32600, message: `Origin ${origin} is not allowed (GATEWAY_MCP_ALLOWED_ORIGINS).` }, id: null });
        return;
      }
      let identity: CallerIdentity;
      try {
        identity = authenticateMcpCaller(request.headers, settings.dependencies.snapshots.current());
      } catch (error) {
        const refused = normalizeError(error);
        const presented = request.headers.authorization !== undefined;
        answer(response, 401, { error: { message: refused.message, code: refused.code, type: "authentication_error", param: null, details: null }, request_id: context.requestId }, {
          "www-authenticate": `Bearer realm="ai-gateway", resource_metadata="${metadataUrl(request)}"${presented ? ', error="invalid_token"' : ""}`,
        });
        return;
      }
      let body: string | null = null;
      let parsedBody: unknown;
      if (request.method === "POST") {
        try {
          parsedBody = await context.readBody();
          body = JSON.stringify(parsedBody);
        } catch (error) {
          const refused = normalizeError(error);
          answer(response, refused.status, { jsonrpc: "2.0", error: { code: refused.status === 400 ? -32700 : -32600, message: refused.message }, id: null });
          return;
        }
      }
      const abort = new AbortController();
      response.once("close", () => {
        if (!response.writableFinished) abort.abort();
      });
      const caller: CallerContext = { identity, headers: request.headers, requestId: context.requestId, startedAt: context.startedAt, calls: 0 };
      const authInfo: AuthInfo = { token: "", clientId: identity.apiKey.id, scopes: [], extra: { [contextKey]: caller } };
      const webRequest = toWebRequest(request, { url: `${baseUrl(request)}${request.url ?? path}`, body, signal: abort.signal });
      const answered = await serve({ requestId: context.requestId, reports: [] }, webRequest, { authInfo, ...(body === null ? {} : { parsedBody }) });
      await writeWebResponse(answered, response);
    },
    protectedResourceMetadata(request) {
      return {
        resource: `${baseUrl(request)}${path}`,
        bearer_methods_supported: ["header"],
        resource_name: "AI Gateway MCP endpoint",
      };
    },
    close: () => handler.close(),
  };
}

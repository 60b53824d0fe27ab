import type { IncomingMessage, ServerResponse } from "node:http";
import { GatewayError, type ParseJsonBodyOptions } from "@gateway/errors";
import {
  type InferenceEndpoint,
  type PipelineDependencies,
  chatCompletionsEndpoint,
  countTokensEndpoint,
  createResponsesEndpoint,
  decisionEndpoint,
  embeddingsEndpoint,
  generateRequestId,
  messagesEndpoint,
  renderErrorResponse,
  runInferenceCall,
  runListModels,
  runStoredResponseRequest,
} from "@gateway/pipeline";
import type { McpGateway } from "@gateway/mcp";
import { CallAbort } from "@gateway/provider-adapters";
import FindMyWay, { type HTTPMethod } from "find-my-way";
import { buildGatewayOpenApiDocument } from "./openapi-document.js";
import { readJsonBody } from "./read-json-body.js";
import { writeJson, writeStream } from "./write-pipeline-response.js";

/** What {@link createGatewayHandler} needs: the pipeline's dependencies plus HTTP settings. */
export interface GatewayAppDependencies extends PipelineDependencies {
  /** Largest accepted request body in bytes (413 `request_too_large` beyond it). */
  bodyLimitBytes: number;
  /** Width bounds of request bodies (values, keys per object, elements per array), checked before parsing; unset: the defaults of `parseJsonBody`. */
  jsonLimits?: ParseJsonBodyOptions;
  /** Largest body of a request to the MCP endpoint (default {@link defaultMcpBodyLimitBytes}; never above `bodyLimitBytes`). */
  mcpBodyLimitBytes?: number;
  /** Loads the MCP endpoint (`/mcp` and its protected-resource metadata) on first use; absent: not served. */
  mcp?: () => Promise<McpGateway>;
  /** Told about unexpected failures (for logs); the client only sees a generic 500. */
  onInternalError?: (error: unknown, requestId: string) => void;
  /** How long stored Responses are kept (default 30 days). */
  responseRetentionMs?: number;
}

/** One request as every step of the gateway sees it. */
export interface GatewayRequestContext {
  /** The gateway's id of the request (`req_...`), already set as `x-request-id`. */
  requestId: string;
  /** Epoch ms the request arrived. */
  startedAt: number;
  /** The matched route's path pattern (`/v1/chat/completions`), set once routed; a hook that answers sets its own. */
  route?: string;
  /** The matched route's path parameters (`id` of `/v1/responses/:id`). */
  params?: Record<string, string | undefined>;
}

/**
 * A step run for every request before routing, whatever the path's spelling (metrics, logs):
 * it may answer the request itself, and then returns true.
 */
export type GatewayRequestHook = (request: IncomingMessage, response: ServerResponse, context: GatewayRequestContext) => boolean | void;

/** The gateway's request listener (`http.createServer(handler)`), with the routes it serves. */
export interface GatewayHandler {
  (request: IncomingMessage, response: ServerResponse): void;
  /** `METHOD /path` of every route, as matched (case-insensitive, trailing slash and query ignored). */
  readonly routes: readonly string[];
}

type RouteHandler = (request: IncomingMessage, response: ServerResponse, context: GatewayRequestContext) => Promise<void> | void;

/** Where the MCP endpoint is served. */
export const mcpPath = "/mcp";

/**
 * Default largest body of a request to the MCP endpoint (`GATEWAY_MCP_BODY_LIMIT_BYTES`): 4 MiB,
 * the MCP SDK's own transport limit. MCP messages are small; tool arguments rarely pass a few KB.
 */
export const defaultMcpBodyLimitBytes = 4 * 1024 * 1024;

/**
 * The gateway's HTTP entry, on `node:http` with the `find-my-way` router: `POST /v1/systemone`,
 * `POST /v1/chat/completions`, `POST /v1/messages`, `POST /v1/messages/count_tokens`,
 * `POST /v1/responses` (with `GET` / `DELETE /v1/responses/{id}` and
 * `GET /v1/responses/{id}/input_items`), `POST /v1/embeddings`, `GET /v1/models`, the MCP
 * endpoint (`/mcp`, with its protected-resource metadata under `/.well-known/oauth-protected-resource`)
 * and `GET /openapi.json`. Every request takes the same steps in the same
 * order, with no hidden control flow: its id is set (`x-request-id` on every answer, success,
 * error, unknown route or 500), the hooks run, then the router (paths case-insensitive, a
 * trailing slash and the query string ignored, as Express matched them). The inference routes
 * run one endpoint spec each on the pipeline's one call skeleton. Bodies are read by the
 * pipeline after authentication, the size limit checked from `Content-Length` first. Streams are
 * written event by event with backpressure; a client that goes away aborts the upstream request.
 */
export function createGatewayHandler(dependencies: GatewayAppDependencies, options: { hooks?: readonly GatewayRequestHook[] } = {}): GatewayHandler {
  const hooks = options.hooks ?? [];
  const router = FindMyWay({ caseSensitive: false, ignoreTrailingSlash: true });
  const routes: string[] = [];
  const route = (method: HTTPMethod, path: string, handler: RouteHandler) => {
    router.on(method, path, handler as never, { route: path });
    routes.push(`${method} ${path}`);
  };

  const jsonLimits = dependencies.jsonLimits ?? {};
  const bodyOptions = { limitBytes: dependencies.bodyLimitBytes, json: jsonLimits };
  const mcpBodyOptions = { limitBytes: Math.min(dependencies.mcpBodyLimitBytes ?? defaultMcpBodyLimitBytes, dependencies.bodyLimitBytes), json: jsonLimits };
  const inference = <Request>(endpoint: InferenceEndpoint<Request>): RouteHandler => async (request, response, context) => {
    const abort = abortOnClose(response);
    const declaredLength = Number(request.headers["content-length"]);
    const answer = await runInferenceCall(
      dependencies,
      {
        requestId: context.requestId,
        startedAt: context.startedAt,
        headers: request.headers,
        readBody: () => readJsonBody(request, bodyOptions),
        abort,
        ...(Number.isSafeInteger(declaredLength) && declaredLength > 0 ? { bodyBytes: declaredLength } : {}),
      },
      endpoint,
    );
    if (answer.kind === "json") writeJson(response, answer);
    else await writeStream(response, answer, abort);
  };
  route("POST", "/v1/chat/completions", inference(chatCompletionsEndpoint));
  route("POST", "/v1/messages", inference(messagesEndpoint));
  route("POST", "/v1/messages/count_tokens", inference(countTokensEndpoint));
  route("POST", "/v1/systemone", inference(decisionEndpoint));
  route(
    "POST",
    "/v1/responses",
    inference(createResponsesEndpoint({ store: dependencies.responseStore ?? null, ...(dependencies.responseRetentionMs === undefined ? {} : { retentionMs: dependencies.responseRetentionMs }) })),
  );
  route("POST", "/v1/embeddings", inference(embeddingsEndpoint));
  const storedResponse =
    (action: "get" | "delete" | "input_items"): RouteHandler =>
    async (request, response, context) => {
      const url = request.url ?? "/";
      const queryAt = url.indexOf("?");
      const id = context.params?.id ?? "";
      writeJson(
        response,
        await runStoredResponseRequest(dependencies, {
          requestId: context.requestId,
          headers: request.headers,
          action,
          id,
          query: new URLSearchParams(queryAt === -1 ? "" : url.slice(queryAt + 1)),
        }),
      );
    };
  route("GET", "/v1/responses/:id", storedResponse("get"));
  route("DELETE", "/v1/responses/:id", storedResponse("delete"));
  route("GET", "/v1/responses/:id/input_items", storedResponse("input_items"));
  route("GET", "/v1/models", (request, response, context) => {
    writeJson(response, runListModels(dependencies, { requestId: context.requestId, headers: request.headers }));
  });
  const loadMcp = dependencies.mcp;
  if (loadMcp !== undefined) {
    const serveMcp: RouteHandler = async (request, response, context) =>
      (await loadMcp()).handle(request, response, {
        requestId: context.requestId,
        startedAt: context.startedAt,
        // The MCP SDK validates what it is given key by key: its body is bounded (size, then width) before it sees it.
        readBody: () => readJsonBody(request, mcpBodyOptions),
      });
    // Streamable HTTP: every message is a POST; GET and DELETE (2025 sessions) are answered 405 by the SDK.
    for (const method of ["POST", "GET", "DELETE"] as const) route(method, mcpPath, serveMcp);
    const metadata: RouteHandler = async (request, response) =>
      writeJson(response, { status: 200, headers: {}, body: (await loadMcp()).protectedResourceMetadata(request) });
    route("GET", `/.well-known/oauth-protected-resource${mcpPath}`, metadata);
    route("GET", "/.well-known/oauth-protected-resource", metadata);
  }
  // Built once: the document depends only on the code.
  const openApiDocument = JSON.stringify(buildGatewayOpenApiDocument());
  route("GET", "/openapi.json", (_request, response) => {
    writeJson(response, { status: 200, headers: {}, body: null, bodyText: openApiDocument });
  });

  const onUnexpectedError = (thrown: unknown, response: ServerResponse, requestId: string) => {
    const answer = renderErrorResponse(thrown, { requestId });
    if (answer.status >= 500) dependencies.onInternalError?.(thrown, requestId);
    if (response.headersSent) {
      response.destroy();
      return;
    }
    writeJson(response, answer);
  };

  const handler = ((request: IncomingMessage, response: ServerResponse) => {
    const context: GatewayRequestContext = { requestId: generateRequestId(), startedAt: Date.now(), route: undefined };
    response.setHeader("x-request-id", context.requestId);
    try {
      for (const hook of hooks) if (hook(request, response, context) === true) return;
      const url = request.url ?? "/";
      const queryAt = url.indexOf("?");
      const found = router.find(request.method as HTTPMethod, queryAt === -1 ? url : url.slice(0, queryAt));
      if (found === null) {
        const path = queryAt === -1 ? url : url.slice(0, queryAt);
        const error = new GatewayError("not_found", { message: `No route for ${request.method} ${path}.` });
        writeJson(response, renderErrorResponse(error, { requestId: context.requestId }));
        return;
      }
      context.route = (found.store as { route: string }).route;
      context.params = found.params;
      const done = (found.handler as unknown as RouteHandler)(request, response, context);
      if (done instanceof Promise) done.catch((thrown: unknown) => onUnexpectedError(thrown, response, context.requestId));
    } catch (thrown) {
      onUnexpectedError(thrown, response, context.requestId);
    }
  }) as GatewayHandler;
  Object.defineProperty(handler, "routes", { value: Object.freeze([...routes]) });
  return handler;
}

/** An abort of the call, aborted when the client goes away before the answer was fully written. */
function abortOnClose(response: ServerResponse): CallAbort {
  const abort = new CallAbort();
  response.once("close", () => {
    if (!response.writableFinished) abort.abort();
  });
  return abort;
}

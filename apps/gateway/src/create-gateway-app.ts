import type { IncomingMessage, ServerResponse } from "node:http";
import { GatewayError } from "@gateway/errors";
import {
  type ChatCallInput,
  type PipelineCallResponse,
  type PipelineDependencies,
  type PipelineJsonResponse,
  type PipelineStreamResponse,
  generateRequestId,
  renderErrorResponse,
  runChatCall,
  runCountTokensCall,
  runDecisionCall,
  runListModels,
  runMessagesCall,
} from "@gateway/pipeline";
import { formatSseEvent } from "@gateway/provider-adapters";
import express, { type Express, type NextFunction, type Request, type Response } from "express";
import { buildGatewayOpenApiDocument } from "./openapi-document.js";
import { readJsonBody } from "./read-json-body.js";

/** What {@link createGatewayApp} needs: the pipeline's dependencies plus HTTP settings. */
export interface GatewayAppDependencies extends PipelineDependencies {
  /** Largest accepted request body in bytes (413 `request_too_large` beyond it). */
  bodyLimitBytes: number;
  /** Told about unexpected failures (for logs); the client only sees a generic 500. */
  onInternalError?: (error: unknown, requestId: string) => void;
}

/**
 * The gateway's Express app: `POST /v1/systemone`, `POST /v1/chat/completions`,
 * `POST /v1/messages`, `POST /v1/messages/count_tokens` and `GET /v1/models` on the data-plane
 * pipeline. Streams are written event by event with backpressure; a client that goes away
 * aborts the upstream request. Every answer (success, error, unknown route, 500) carries `x-request-id`. The hot
 * path has no body-parser middleware: bodies are read by the route, after authentication,
 * with the size limit checked from `Content-Length` first.
 */
export function createGatewayApp(dependencies: GatewayAppDependencies): Express {
  const app = express();
  app.locals[pipelineDependenciesKey] = dependencies;
  app.disable("x-powered-by");
  app.disable("etag");
  app.set("query parser", false);

  // The request id is set by each route first thing (not by an app-wide middleware: one router
  // layer less on the hot path); the 404 and error handlers set it when no route did.
  app.post("/v1/systemone", async (request: Request, response: Response) => {
    const abort = abortOnClose(response);
    const answer = await runDecisionCall(dependencies, {
      requestId: requestIdFor(response),
      headers: request.headers,
      readBody: () => readJsonBody(request, { limitBytes: dependencies.bodyLimitBytes }),
      signal: abort.signal,
    });
    sendJson(response, answer);
  });

  const chatRoute =
    (run: (dependencies: PipelineDependencies, input: ChatCallInput) => Promise<PipelineCallResponse>) =>
    async (request: IncomingMessage, response: ServerResponse) => {
      const abort = abortOnClose(response);
      const declaredLength = Number(request.headers["content-length"]);
      const answer = await run(dependencies, {
        requestId: requestIdFor(response),
        headers: request.headers,
        readBody: () => readJsonBody(request, { limitBytes: dependencies.bodyLimitBytes }),
        abortController: abort,
        ...(Number.isSafeInteger(declaredLength) && declaredLength > 0 ? { bodyBytes: declaredLength } : {}),
      });
      if (answer.kind === "json") sendJson(response, answer);
      else await sendStream(response, answer, abort);
    };
  const chatCompletions = chatRoute(runChatCall);
  const messages = chatRoute(runMessagesCall);
  app.post("/v1/chat/completions", chatCompletions);
  app.post("/v1/messages", messages);

  app.post("/v1/messages/count_tokens", async (request: Request, response: Response) => {
    const abort = abortOnClose(response);
    const answer = await runCountTokensCall(dependencies, {
      requestId: requestIdFor(response),
      headers: request.headers,
      readBody: () => readJsonBody(request, { limitBytes: dependencies.bodyLimitBytes }),
      signal: abort.signal,
    });
    sendJson(response, answer);
  });

  app.get("/v1/models", (request: Request, response: Response) => {
    sendJson(response, runListModels(dependencies, { requestId: requestIdFor(response), headers: request.headers }));
  });

  // Built once: the document depends only on the code.
  const openApiDocument = JSON.stringify(buildGatewayOpenApiDocument());
  app.get("/openapi.json", (_request: Request, response: Response) => {
    requestIdFor(response);
    sendJson(response, { status: 200, headers: {}, body: null, bodyText: openApiDocument });
  });

  app.use((request: Request, response: Response) => {
    const error = new GatewayError("not_found", { message: `No route for ${request.method} ${request.path}.` });
    sendJson(response, renderErrorResponse(error, { requestId: requestIdFor(response) }));
  });

  const onUnexpectedError = (thrown: unknown, response: ServerResponse) => {
    const requestId = requestIdFor(response);
    const answer = renderErrorResponse(thrown, { requestId });
    if (answer.status >= 500) dependencies.onInternalError?.(thrown, requestId);
    if (response.headersSent) {
      response.destroy();
      return;
    }
    sendJson(response, answer);
  };
  app.use((thrown: unknown, _request: Request, response: Response, _next: NextFunction) => onUnexpectedError(thrown, response));

  // Lean dispatch of the two hot inference routes: an exact `POST` path match goes straight to
  // its handler, skipping Express's router walk and its request/response prototype swap (tens of
  // microseconds per call). The routes stay registered above (same handlers) for every other
  // spelling Express accepts (query string, trailing slash, case) and for route listings.
  const hotRoutes = new Map<string, (request: IncomingMessage, response: ServerResponse) => Promise<void>>([
    ["/v1/chat/completions", chatCompletions],
    ["/v1/messages", messages],
  ]);
  const expressHandle = (app as unknown as { handle: ExpressHandle }).handle;
  (app as unknown as { handle: ExpressHandle }).handle = function handle(this: unknown, request, response, callback) {
    if (callback === undefined && request.method === "POST") {
      const hot = hotRoutes.get(request.url ?? "");
      if (hot !== undefined) {
        hot(request, response).catch((thrown: unknown) => onUnexpectedError(thrown, response));
        return;
      }
    }
    expressHandle.call(this, request, response, callback);
  };

  return app;
}

const pipelineDependenciesKey = "gatewayPipelineDependencies";

/** The pipeline dependencies an app was created with (for the playground runner of the same process). */
export function gatewayPipelineDependencies(app: Express): PipelineDependencies {
  return app.locals[pipelineDependenciesKey] as PipelineDependencies;
}

/** Writes a pipeline answer as JSON. */
function sendJson(response: ServerResponse, answer: PipelineJsonResponse): void {
  if (response.headersSent || response.destroyed) return;
  const payload = answer.bodyText ?? JSON.stringify(answer.body);
  const headers: Record<string, string | number> = {
    ...answer.headers,
    "content-type": "application/json; charset=utf-8",
    "content-length": Buffer.byteLength(payload),
  };
  // The body was left unread past the limit: do not keep reading it to reuse the connection.
  if (answer.status === 413) headers.connection = "close";
  response.writeHead(answer.status, headers);
  response.end(payload);
}

type ExpressHandle = (request: IncomingMessage, response: ServerResponse, callback?: (error?: unknown) => void) => void;

const requestIdKey = Symbol("gatewayRequestId");

/** The request's id (`req_...`), generated and set as `x-request-id` on first use. */
function requestIdFor(response: ServerResponse): string {
  const holder = response as ServerResponse & { [requestIdKey]?: string };
  let requestId = holder[requestIdKey];
  if (requestId === undefined) {
    requestId = generateRequestId();
    holder[requestIdKey] = requestId;
    if (!response.headersSent) response.setHeader("x-request-id", requestId);
  }
  return requestId;
}

/** An AbortController aborted when the client goes away before the answer was fully written. */
function abortOnClose(response: ServerResponse): AbortController {
  const abort = new AbortController();
  response.once("close", () => {
    if (!response.writableFinished) abort.abort();
  });
  return abort;
}

/**
 * Writes a pipeline stream as server-sent events: headers at once (`flushHeaders`, no
 * buffering by proxies), then each event in its own write as soon as the pipeline yields it,
 * waiting for `drain` when the socket's buffer is full (backpressure: a slow reader slows the
 * upstream read, nothing piles up). When the client goes away, iteration stops, which closes
 * the upstream request and records the call as cancelled.
 */
async function sendStream(response: ServerResponse, answer: PipelineStreamResponse, abort: AbortController): Promise<void> {
  const iterator = answer.events[Symbol.asyncIterator]();
  if (response.destroyed || abort.signal.aborted) {
    await iterator.return?.();
    return;
  }
  response.writeHead(answer.status, {
    ...answer.headers,
    "content-type": "text/event-stream; charset=utf-8",
    "cache-control": "no-cache",
    "x-accel-buffering": "no",
  });
  response.flushHeaders();
  try {
    for (;;) {
      const next = await iterator.next();
      if (next.done) break;
      if (response.destroyed) {
        await iterator.return?.();
        return;
      }
      if (!response.write(formatSseEvent(next.value)) && !(await drained(response))) {
        await iterator.return?.();
        return;
      }
    }
  } catch {
    // The pipeline renders failures as events and never throws; if it does, end the stream.
    await iterator.return?.().catch(() => undefined);
  }
  response.end();
}

/** Resolves true on `drain`, false when the response closes first. */
function drained(response: ServerResponse): Promise<boolean> {
  return new Promise((resolve) => {
    const onDrain = () => {
      response.off("close", onClose);
      resolve(true);
    };
    const onClose = () => {
      response.off("drain", onDrain);
      resolve(false);
    };
    response.once("drain", onDrain);
    response.once("close", onClose);
  });
}

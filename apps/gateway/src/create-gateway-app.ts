import type { ServerResponse } from "node:http";
import { GatewayError } from "@gateway/errors";
import {
  type PipelineDependencies,
  type PipelineJsonResponse,
  generateRequestId,
  renderErrorResponse,
  runDecisionCall,
  runListModels,
} from "@gateway/pipeline";
import express, { type Express, type NextFunction, type Request, type Response } from "express";
import { readJsonBody } from "./read-json-body.js";

/** What {@link createGatewayApp} needs: the pipeline's dependencies plus HTTP settings. */
export interface GatewayAppDependencies extends PipelineDependencies {
  /** Largest accepted request body in bytes (413 `request_too_large` beyond it). */
  bodyLimitBytes: number;
  /** Told about unexpected failures (for logs); the client only sees a generic 500. */
  onInternalError?: (error: unknown, requestId: string) => void;
}

/**
 * The gateway's Express app: `POST /v1/systemone` and `GET /v1/models` on the data-plane
 * pipeline. Every answer (success, error, unknown route, 500) carries `x-request-id`. The hot
 * path has no body-parser middleware: bodies are read by the route, after authentication,
 * with the size limit checked from `Content-Length` first.
 */
export function createGatewayApp(dependencies: GatewayAppDependencies): Express {
  const app = express();
  app.disable("x-powered-by");
  app.disable("etag");
  app.set("query parser", false);

  app.use((_request: Request, response: Response, next: NextFunction) => {
    const requestId = generateRequestId();
    response.locals.requestId = requestId;
    response.setHeader("x-request-id", requestId);
    next();
  });

  app.post("/v1/systemone", async (request: Request, response: Response) => {
    const abort = new AbortController();
    response.on("close", () => {
      if (!response.writableFinished) abort.abort();
    });
    const answer = await runDecisionCall(dependencies, {
      requestId: response.locals.requestId as string,
      headers: request.headers,
      readBody: () => readJsonBody(request, { limitBytes: dependencies.bodyLimitBytes }),
      signal: abort.signal,
    });
    sendJson(response, answer);
  });

  app.get("/v1/models", (request: Request, response: Response) => {
    sendJson(response, runListModels(dependencies, { requestId: response.locals.requestId as string, headers: request.headers }));
  });

  app.use((request: Request, response: Response) => {
    const error = new GatewayError("not_found", { message: `No route for ${request.method} ${request.path}.` });
    sendJson(response, renderErrorResponse(error, { requestId: response.locals.requestId as string }));
  });

  app.use((thrown: unknown, _request: Request, response: Response, _next: NextFunction) => {
    const requestId = (response.locals.requestId as string | undefined) ?? generateRequestId();
    const answer = renderErrorResponse(thrown, { requestId });
    if (answer.status >= 500) dependencies.onInternalError?.(thrown, requestId);
    if (response.headersSent) {
      response.destroy();
      return;
    }
    sendJson(response, answer);
  });

  return app;
}

/** Writes a pipeline answer as JSON. */
function sendJson(response: ServerResponse, answer: PipelineJsonResponse): void {
  if (response.headersSent || response.destroyed) return;
  const payload = JSON.stringify(answer.body);
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

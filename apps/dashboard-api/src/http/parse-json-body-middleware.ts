import express, { type NextFunction, type Request, type RequestHandler, type Response } from "express";
import { GatewayError, parseJsonBody } from "@gateway/errors";

/** Options of {@link parseJsonBodyMiddleware}. */
export interface ParseJsonBodyMiddlewareOptions {
  /** Largest accepted body (an Express size string such as `1mb`, or bytes); 413 `request_too_large` beyond it. */
  limit: string | number;
}

/**
 * The dashboard's JSON body reader, in place of `express.json()`: Express reads the bytes of an
 * `application/json` (or `application/*+json`) body within the limit (decompressing
 * `Content-Encoding` as before), then `parseJsonBody` of `@gateway/errors` scans them before
 * `JSON.parse`, the same rules as the gateway: nesting over 128 levels, an unpaired UTF-16
 * surrogate escape, or text that is not JSON answer 400 `invalid_request`. As before, an empty
 * body is `{}`, a body that is not an object or array is 400, another media type leaves
 * `request.body` undefined (the route's schema then refuses it), and a charset other than UTF-8
 * is 415 `unsupported_media_type`.
 */
export function parseJsonBodyMiddleware(options: ParseJsonBodyMiddlewareOptions): RequestHandler {
  const readBytes = express.raw({ type: ["application/json", "application/*+json"], limit: options.limit });
  return (request: Request, response: Response, next: NextFunction) => {
    readBytes(request, response, (error?: unknown) => {
      if (error !== undefined && error !== null) {
        next(error);
        return;
      }
      const bytes: unknown = request.body;
      if (!Buffer.isBuffer(bytes)) {
        next();
        return;
      }
      try {
        request.body = parseBytes(bytes, request.headers["content-type"]);
        next();
      } catch (thrown) {
        request.body = undefined;
        next(thrown);
      }
    });
  };
}

function parseBytes(bytes: Buffer, contentType: string | undefined): unknown {
  const charset = /;\s*charset\s*=\s*"?([^";\s]*)/i.exec(contentType ?? "")?.[1]?.toLowerCase();
  if (charset !== undefined && charset !== "utf-8" && charset !== "utf8") {
    throw new GatewayError("unsupported_media_type", { message: "The request body must be UTF-8 JSON." });
  }
  if (bytes.length === 0) return {};
  const value = parseJsonBody(bytes);
  if (typeof value !== "object" || value === null) {
    throw new GatewayError("invalid_request", { message: "The request body must be a JSON object or array." });
  }
  return value;
}

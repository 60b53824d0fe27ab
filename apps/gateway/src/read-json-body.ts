import type { IncomingMessage } from "node:http";
import { GatewayError, type ParseJsonBodyOptions, parseJsonBody } from "@gateway/errors";

/**
 * Reads and parses a JSON request body within `limitBytes`.
 * - 413 `request_too_large` from `Content-Length` alone, before a byte is read, and again
 *   while reading when a chunked or lying body passes the limit (reading stops at once);
 * - 415 `unsupported_media_type` for a declared non-JSON `Content-Type`;
 * - 400 `invalid_request` for an empty or unparsable body, a body nested deeper than 128 levels
 *   (`defaultJsonMaxDepth`), wider than `options.json` allows (values in all, keys per object,
 *   elements per array) or holding an unpaired UTF-16 surrogate escape (`parseJsonBody`, which
 *   scans the bytes in one linear pass before `JSON.parse`).
 */
export async function readJsonBody(request: IncomingMessage, options: { limitBytes: number; json?: ParseJsonBodyOptions }): Promise<unknown> {
  const contentType = request.headers["content-type"];
  if (contentType !== undefined && !isJsonContentType(contentType)) {
    throw new GatewayError("unsupported_media_type", {
      message: "The request body must be JSON (Content-Type: application/json).",
    });
  }
  const declaredLength = request.headers["content-length"];
  if (declaredLength !== undefined && Number(declaredLength) > options.limitBytes) {
    throw tooLarge(options.limitBytes);
  }
  const { chunks, received } = await readChunks(request, options.limitBytes);
  return parseJsonBody(Buffer.concat(chunks, received), options.json);
}

/** Collects the body; stops reading (and pauses the socket) as soon as the limit is passed. */
function readChunks(request: IncomingMessage, limitBytes: number): Promise<{ chunks: Buffer[]; received: number }> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let received = 0;
    const cleanup = () => {
      request.off("data", onData);
      request.off("end", onEnd);
      request.off("error", onError);
      request.off("aborted", onAborted);
    };
    const onData = (chunk: Buffer) => {
      received += chunk.length;
      if (received > limitBytes) {
        cleanup();
        request.pause();
        reject(tooLarge(limitBytes));
        return;
      }
      chunks.push(chunk);
    };
    const onEnd = () => {
      cleanup();
      resolve({ chunks, received });
    };
    const onError = (error: Error) => {
      cleanup();
      reject(new GatewayError("client_cancelled", { cause: error }));
    };
    const onAborted = () => onError(new Error("The client aborted the request."));
    request.on("data", onData);
    request.on("end", onEnd);
    request.on("error", onError);
    request.on("aborted", onAborted);
  });
}

function isJsonContentType(value: string): boolean {
  const mediaType = value.split(";", 1)[0]!.trim().toLowerCase();
  return mediaType === "application/json" || (mediaType.startsWith("application/") && mediaType.endsWith("+json"));
}

function tooLarge(limitBytes: number): GatewayError {
  return new GatewayError("request_too_large", {
    message: `The request body is larger than the gateway accepts (${limitBytes} bytes).`,
    details: { limit_bytes: limitBytes },
  });
}

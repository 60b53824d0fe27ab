import type { IncomingMessage, ServerResponse } from "node:http";

/** Headers of the node request that the MCP handler must not see again (the body is re-serialised; credentials were checked). */
const droppedRequestHeaders = new Set(["content-length", "transfer-encoding", "connection", "keep-alive", "authorization", "cookie", "expect"]);

/** Slice size of large body chunks (see {@link writeWebResponse}). */
const writeSliceBytes = 64 * 1024;

/** A web `Request` for the SDK's handler from a node request whose body the gateway already read. */
export function toWebRequest(request: IncomingMessage, options: { url: string; body: string | null; signal: AbortSignal }): Request {
  const headers = new Headers();
  for (const [name, value] of Object.entries(request.headers)) {
    if (value === undefined || droppedRequestHeaders.has(name)) continue;
    if (Array.isArray(value)) for (const item of value) headers.append(name, item);
    else headers.set(name, value);
  }
  return new Request(options.url, { method: request.method ?? "GET", headers, signal: options.signal, ...(options.body === null ? {} : { body: options.body }) });
}

/**
 * Writes a web `Response` to a node response: status and headers at once (SSE answers are
 * flushed before their first event), then the body chunk by chunk, waiting for `drain` when the
 * client's socket is full. A client that goes away cancels the body (and so the MCP request).
 * Large chunks are written in 64 KiB slices, one at a time, so the server's write timeout sees a
 * slow reader's progress (one large write completes only when all of it was read).
 */
export async function writeWebResponse(source: Response, response: ServerResponse): Promise<void> {
  const headers: Record<string, string> = {};
  source.headers.forEach((value, name) => {
    headers[name] = value;
  });
  response.writeHead(source.status, headers);
  if (source.body === null) {
    response.end();
    return;
  }
  if ((headers["content-type"] ?? "").includes("text/event-stream")) response.flushHeaders();
  const reader = source.body.getReader();
  const cancel = () => void reader.cancel().catch(() => undefined);
  response.once("close", cancel);
  try {
    for (;;) {
      const chunk = await reader.read();
      if (chunk.done) break;
      const bytes = chunk.value as Uint8Array;
      // One slice at a time: queued slices would leave as one write, complete only when all of it was read.
      for (let offset = 0; offset < bytes.length && !response.destroyed; offset += writeSliceBytes) {
        if (!response.write(bytes.subarray(offset, offset + writeSliceBytes))) await drainedOrClosed(response);
      }
      if (response.destroyed) break;
    }
  } catch {
    // The stream failed: end what was written; the client sees the connection end.
  } finally {
    response.off("close", cancel);
    response.end();
  }
}

/** Resolves on `drain`, or when the response closes first. */
function drainedOrClosed(response: ServerResponse): Promise<void> {
  return new Promise<void>((resolve) => {
    const done = () => {
      response.off("drain", done);
      response.off("close", done);
      resolve();
    };
    response.once("drain", done);
    response.once("close", done);
  });
}

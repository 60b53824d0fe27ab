import type { ServerResponse } from "node:http";
import type { PipelineJsonResponse, PipelineStreamResponse } from "@gateway/pipeline";
import { formatSseEvent } from "@gateway/provider-adapters";

/**
 * Answers longer than this are written in slices of this size, one at a time: the server's
 * write timeout sees a slow reader's progress slice by slice (one write of 20 MB completes only
 * once all of it was read, so a slow but reading client would look stalled).
 */
const writeSliceBytes = 64 * 1024;

/** Writes a pipeline answer as JSON (the provider's own bytes when the pipeline kept them). */
export function writeJson(response: ServerResponse, answer: PipelineJsonResponse): void {
  if (response.headersSent || response.destroyed) return;
  const payload = answer.bodyText ?? JSON.stringify(answer.body);
  // Object.assign, not `{ ...answer.headers, "content-type": ... }`: V8 (Node 20) gives a spread
  // copy that gains a key a new hidden class on every call (old-generation garbage per request).
  const headers: Record<string, string | number> = Object.assign({}, answer.headers);
  headers["content-type"] = "application/json; charset=utf-8";
  headers["content-length"] = Buffer.byteLength(payload);
  // The body was left unread past the limit: do not keep reading it to reuse the connection.
  if (answer.status === 413) headers.connection = "close";
  response.writeHead(answer.status, headers);
  if (payload.length <= writeSliceBytes) {
    response.end(payload);
    return;
  }
  writeSlices(response, Buffer.from(payload), 0);
}

/**
 * Writes `bytes` from `offset` slice by slice, the next one only once the socket took the
 * previous (`drain`): queued slices would leave as one write that completes only when all of it
 * was read. Then ends the response. A client that goes away leaves the rest unwritten.
 */
function writeSlices(response: ServerResponse, bytes: Buffer, offset: number): void {
  while (offset < bytes.length) {
    const end = Math.min(offset + writeSliceBytes, bytes.length);
    const flowing = response.write(bytes.subarray(offset, end));
    offset = end;
    if (!flowing && offset < bytes.length) {
      response.once("drain", () => writeSlices(response, bytes, offset));
      return;
    }
  }
  response.end();
}

/**
 * Writes a pipeline stream as server-sent events: headers at once (`flushHeaders`, no
 * buffering by proxies), then each event as soon as the pipeline yields it, waiting for `drain`
 * when the socket's buffer is full (backpressure: a slow reader slows the upstream read, nothing
 * piles up). The headers leave with the first event when it comes in the same tick (one socket
 * write), else alone at the tick's end. Node corks a response's socket from its first write in a
 * tick until the tick ends, so later events of one upstream read leave together; the first event
 * is uncorked at once instead of waiting for the rest of its read. When the client goes away,
 * iteration stops, which closes the upstream request and records the call as cancelled.
 */
export async function writeStream(response: ServerResponse, answer: PipelineStreamResponse, abort: { readonly aborted: boolean }): Promise<void> {
  const iterator = answer.events[Symbol.asyncIterator]();
  if (response.destroyed || abort.aborted) {
    await iterator.return?.();
    return;
  }
  const headers: Record<string, string> = Object.assign({}, answer.headers);
  headers["content-type"] = "text/event-stream; charset=utf-8";
  headers["cache-control"] = "no-cache";
  headers["x-accel-buffering"] = "no";
  response.writeHead(answer.status, headers);
  // The headers wait for the first event until this tick ends.
  let headersHeld = true;
  response.cork();
  process.nextTick(() => {
    if (!headersHeld) return;
    headersHeld = false;
    response.uncork();
  });
  response.flushHeaders();
  let first = true;
  try {
    for (;;) {
      const next = await iterator.next();
      if (next.done) break;
      if (response.destroyed) {
        await iterator.return?.();
        return;
      }
      const flowing = response.write(formatSseEvent(next.value));
      if (first) {
        // Undoes one cork: ours (the headers still held) or Node's for this tick.
        first = false;
        headersHeld = false;
        response.uncork();
      }
      if (!flowing && !(await drained(response))) {
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

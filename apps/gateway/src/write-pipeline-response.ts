import type { ServerResponse } from "node:http";
import type { PipelineJsonResponse, PipelineStreamResponse } from "@gateway/pipeline";
import { formatSseEvent } from "@gateway/provider-adapters";

/** Writes a pipeline answer as JSON (the provider's own bytes when the pipeline kept them). */
export function writeJson(response: ServerResponse, answer: PipelineJsonResponse): void {
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

/**
 * Writes a pipeline stream as server-sent events: headers at once (`flushHeaders`, no
 * buffering by proxies), then each event as soon as the pipeline yields it, waiting for `drain`
 * when the socket's buffer is full (backpressure: a slow reader slows the upstream read, nothing
 * piles up). The headers leave with the first event when it is already there (one socket
 * write), and the first event never waits for the ones after it; later events yielded in the
 * same tick (decoded from one upstream read) leave together once the tick's microtasks have run.
 * When the client goes away, iteration stops, which closes the upstream request and records the
 * call as cancelled.
 */
export async function writeStream(response: ServerResponse, answer: PipelineStreamResponse, abort: AbortController): Promise<void> {
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
  const batch = tickBatch(response);
  batch.hold();
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
      batch.hold();
      const flowing = response.write(formatSseEvent(next.value));
      if (first) {
        // The first event (with the headers) goes out now, not after the rest of its upstream read.
        first = false;
        batch.flush();
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

/**
 * Corks the response until the current tick ends: `hold()` corks it (once until released) and
 * queues the uncork with `process.nextTick`, which runs after the microtasks already queued (the
 * iterator's next events from the same upstream read) and before the event loop goes on;
 * `flush()` uncorks at once.
 */
function tickBatch(response: ServerResponse): { hold(): void; flush(): void } {
  let held = false;
  let scheduled = false;
  const flush = () => {
    if (!held) return;
    held = false;
    response.uncork();
  };
  const release = () => {
    scheduled = false;
    flush();
  };
  return {
    hold() {
      if (held || response.destroyed) return;
      held = true;
      response.cork();
      if (!scheduled) {
        scheduled = true;
        process.nextTick(release);
      }
    },
    flush,
  };
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

/** `data` of the JSON-RPC error the gateway puts in place of an answer its upstream never sent. */
export const brokenStreamMarker = { "ai-gateway/upstream": "stream_ended_without_answer" } as const;

/**
 * Wraps the MCP client's `fetch` so that a request never waits on a dead stream: when the SSE
 * response to a JSON-RPC request ends, or breaks (the server crashed, a proxy cut it), before it
 * carried that request's answer, the stream is ended with a JSON-RPC error for the request's id
 * (marked with {@link brokenStreamMarker}). The SDK then rejects the call at once instead of
 * waiting for its timeout; the stream's own answer, when it came, passes unchanged.
 */
export function guardUpstreamFetch(base: typeof fetch): typeof fetch {
  return async (input, init) => {
    const response = await base(input, init);
    const contentType = response.headers.get("content-type") ?? "";
    if ((init?.method ?? "GET").toUpperCase() !== "POST" || response.body === null || !contentType.includes("text/event-stream")) return response;
    const id = jsonRpcRequestId(init?.body);
    if (id === undefined) return response;
    const headers = new Headers(response.headers);
    headers.delete("content-length");
    headers.delete("content-encoding");
    return new Response(guardEventStream(response.body, id), { status: response.status, statusText: response.statusText, headers });
  };
}

function jsonRpcRequestId(body: unknown): string | number | undefined {
  if (typeof body !== "string") return undefined;
  try {
    const message = JSON.parse(body) as { id?: unknown; method?: unknown };
    return typeof message.method === "string" && (typeof message.id === "string" || typeof message.id === "number") ? message.id : undefined;
  } catch {
    return undefined;
  }
}

function guardEventStream(source: ReadableStream<Uint8Array>, id: string | number): ReadableStream<Uint8Array> {
  const reader = source.getReader();
  const decoder = new TextDecoder();
  const encoder = new TextEncoder();
  let pending = "";
  let answered = false;
  const scan = (text: string) => {
    pending += text;
    const events = pending.split(/\r?\n\r?\n/);
    pending = events.pop() ?? "";
    for (const event of events) {
      const data = event
        .split(/\r?\n/)
        .filter((line) => line.startsWith("data:"))
        .map((line) => line.slice(5).replace(/^ /, ""))
        .join("\n");
      if (data === "") continue;
      try {
        const message = JSON.parse(data) as { id?: unknown; result?: unknown; error?: unknown };
        if (message.id === id && ("result" in message || "error" in message)) answered = true;
      } catch {
        // Not JSON: the SDK reports it; this guard only watches for the answer.
      }
    }
  };
  const endWithoutAnswer = (controller: ReadableStreamDefaultController<Uint8Array>) => {
    const error = { jsonrpc: "2.0", id, error: { code: -32603, message: "The MCP server closed the stream before answering.", data: brokenStreamMarker } };
    controller.enqueue(encoder.encode(`${pending === "" ? "" : "\n\n"}event: message\ndata: ${JSON.stringify(error)}\n\n`));
    controller.close();
  };
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      let chunk: Awaited<ReturnType<typeof reader.read>>;
      try {
        chunk = await reader.read();
      } catch {
        if (answered) controller.close();
        else endWithoutAnswer(controller);
        return;
      }
      if (chunk.done) {
        scan(decoder.decode());
        if (answered) controller.close();
        else endWithoutAnswer(controller);
        return;
      }
      scan(decoder.decode(chunk.value, { stream: true }));
      controller.enqueue(chunk.value);
    },
    cancel(reason) {
      return reader.cancel(reason);
    },
  });
}

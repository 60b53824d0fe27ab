import { GatewayError } from "@gateway/errors";

/**
 * Wraps the MCP client's `fetch` so that no upstream answer is read past `maxBytes`: the body
 * is counted as it arrives, and once it passes the bound the upstream response is cancelled and
 * the body fails with 502 `upstream_error` naming the limit (for an event stream, the stream
 * guard then answers the pending request with a JSON-RPC error at once). A server that answers
 * 20 MB is refused after `maxBytes`, instead of each such answer being read, parsed and held
 * whole before the result cap refuses it.
 */
export function limitUpstreamResponse(base: typeof fetch, maxBytes: number): typeof fetch {
  return async (input, init) => {
    const response = await base(input, init);
    if (response.body === null) return response;
    const declared = Number(response.headers.get("content-length"));
    if (Number.isFinite(declared) && declared > maxBytes) {
      await response.body.cancel().catch(() => undefined);
      throw tooLarge(maxBytes);
    }
    return new Response(countedBody(response.body, maxBytes), { status: response.status, statusText: response.statusText, headers: response.headers });
  };
}

function countedBody(source: ReadableStream<Uint8Array>, maxBytes: number): ReadableStream<Uint8Array> {
  const reader = source.getReader();
  let received = 0;
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      const chunk = await reader.read();
      if (chunk.done) {
        controller.close();
        return;
      }
      received += chunk.value.byteLength;
      if (received > maxBytes) {
        await reader.cancel().catch(() => undefined);
        controller.error(tooLarge(maxBytes));
        return;
      }
      controller.enqueue(chunk.value);
    },
    cancel(reason) {
      return reader.cancel(reason);
    },
  });
}

function tooLarge(maxBytes: number): GatewayError {
  return new GatewayError("upstream_error", {
    message: `The MCP server's answer is larger than the gateway reads (${maxBytes} bytes; GATEWAY_MCP_RESULT_LIMIT_BYTES).`,
    details: { limit_bytes: maxBytes },
  });
}

import { describe, expect, it } from "vitest";
import { brokenStreamMarker, guardUpstreamFetch } from "./guard-upstream-fetch.js";

const request = { method: "POST", body: JSON.stringify({ jsonrpc: "2.0", id: 7, method: "tools/call", params: { name: "x" } }) };

/** A fetch answering an SSE response whose body yields `chunks`, then ends or fails. */
function sseFetch(chunks: string[], end: "close" | "error"): typeof fetch {
  return async () => {
    const encoder = new TextEncoder();
    let index = 0;
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (index < chunks.length) controller.enqueue(encoder.encode(chunks[index++]!));
        else if (end === "close") controller.close();
        else controller.error(new TypeError("terminated"));
      },
    });
    return new Response(body, { status: 200, headers: { "content-type": "text/event-stream", "content-length": "999" } });
  };
}

const messagesOf = async (response: Response) =>
  (await response.text())
    .split(/\n\n/)
    .map((event) => event.split("\n").find((line) => line.startsWith("data: "))?.slice(6))
    .filter((data): data is string => data !== undefined)
    .map((data) => JSON.parse(data) as { id?: unknown; result?: unknown; error?: { data?: unknown } });

describe("guardUpstreamFetch", () => {
  it.each(["close", "error"] as const)("ends a stream that %ss before the answer with a JSON-RPC error for the request", async (end) => {
    const response = await guardUpstreamFetch(sseFetch([`event: message\ndata: {"jsonrpc":"2.0","method":"notifications/progress","params":{}}\n\n`, ": keep-alive\n\n"], end))("http://upstream/mcp", request);
    expect(response.headers.get("content-length")).toBeNull();
    const messages = await messagesOf(response);
    expect(messages).toHaveLength(2);
    expect(messages[1]).toMatchObject({ id: 7, error: { code: -32603, data: brokenStreamMarker } });
  });

  it("passes a stream that carried the answer unchanged, split across chunks", async () => {
    const answer = `event: message\ndata: {"jsonrpc":"2.0","id":7,"result":{"content":[]}}\n\n`;
    const response = await guardUpstreamFetch(sseFetch([answer.slice(0, 20), answer.slice(20)], "error"))("http://upstream/mcp", request);
    expect(await messagesOf(response)).toEqual([{ jsonrpc: "2.0", id: 7, result: { content: [] } }]);
  });

  it("leaves JSON answers, notifications and GET streams alone", async () => {
    const json: typeof fetch = async () => new Response("{}", { headers: { "content-type": "application/json" } });
    expect(await (await guardUpstreamFetch(json)("http://upstream/mcp", request)).text()).toBe("{}");
    const notification = { method: "POST", body: JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" }) };
    expect(await (await guardUpstreamFetch(sseFetch(["data: 1\n\n"], "close"))("http://upstream/mcp", notification)).text()).toBe("data: 1\n\n");
    expect(await (await guardUpstreamFetch(sseFetch(["data: 1\n\n"], "close"))("http://upstream/mcp", { method: "GET" })).text()).toBe("data: 1\n\n");
  });
});

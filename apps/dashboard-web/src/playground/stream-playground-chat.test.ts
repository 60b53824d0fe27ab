import { describe, expect, it } from "vitest";
import { ApiError } from "../api/api-error.js";
import { streamPlaygroundChat } from "./stream-playground-chat.js";

function answer(body: string, init: { status?: number; headers?: Record<string, string> }): typeof fetch {
  return async () => new Response(body, { status: init.status ?? 200, headers: init.headers ?? {} });
}

const request = { model: "demo/demo/chat", api_key_id: "key_1", messages: [{ role: "user" as const, content: "Hi" }], stream: true };

describe("streamPlaygroundChat", () => {
  it("reports deltas as they arrive and collects usage, request id and provider", async () => {
    const frames = [
      { model: "demo/chat", choices: [{ delta: { role: "assistant", content: "" } }], usage: null },
      { choices: [{ delta: { content: "Hel" } }], usage: null },
      { choices: [{ delta: { content: "lo" }, finish_reason: "stop" }], usage: null },
      { choices: [], usage: { prompt_tokens: 3, completion_tokens: 2, total_tokens: 5 } },
    ];
    const body = frames.map((frame) => `data: ${JSON.stringify(frame)}\n\n`).join("") + "data: [DONE]\n\n";
    const deltas: string[] = [];
    let sent: RequestInit | undefined;
    const result = await streamPlaygroundChat({
      request,
      onDelta: (text) => deltas.push(text),
      fetch: async (_url, init) => {
        sent = init;
        return answer(body, { headers: { "content-type": "text/event-stream", "x-request-id": "req_1", "x-gateway-provider": "demo" } })("");
      },
    });
    expect(deltas).toEqual(["Hel", "lo"]);
    expect(result).toEqual({ content: "Hello", finishReason: "stop", usage: { prompt_tokens: 3, completion_tokens: 2, total_tokens: 5 }, requestId: "req_1", provider: "demo", model: "demo/chat" });
    expect(JSON.parse(String(sent!.body))).toMatchObject({ stream: true, stream_options: { include_usage: true }, api_key_id: "key_1" });
  });

  it("turns an error answer and an in-stream error event into ApiErrors with the request id", async () => {
    const refused = streamPlaygroundChat({
      request,
      fetch: answer(JSON.stringify({ error: { code: "model_not_allowed", message: "Not allowed.", details: {} } }), { status: 403, headers: { "x-request-id": "req_2" } }),
    });
    await expect(refused).rejects.toMatchObject({ code: "model_not_allowed", status: 403, requestId: "req_2" });
    const broken = streamPlaygroundChat({
      request,
      fetch: answer(`data: {"choices":[{"delta":{"content":"a"}}]}\n\nevent: error\ndata: {"error":{"code":"upstream_error","message":"The provider went away."}}\n\n`, {
        headers: { "content-type": "text/event-stream", "x-request-id": "req_3" },
      }),
    });
    await expect(broken).rejects.toBeInstanceOf(ApiError);
    await expect(broken).rejects.toMatchObject({ code: "upstream_error", message: "The provider went away.", requestId: "req_3" });
  });

  it("reads a JSON answer when streaming is off", async () => {
    const result = await streamPlaygroundChat({
      request: { ...request, stream: false },
      fetch: answer(JSON.stringify({ model: "m", choices: [{ message: { content: "Hi there" }, finish_reason: "stop" }], usage: { prompt_tokens: 1, completion_tokens: 2, total_tokens: 3 } }), {
        headers: { "content-type": "application/json", "x-request-id": "req_4" },
      }),
    });
    expect(result).toMatchObject({ content: "Hi there", usage: { total_tokens: 3 }, requestId: "req_4" });
  });
});

// A local OpenAI-compatible provider for benchmarks: fixed latency, JSON or SSE answers.
import { createServer } from "node:http";

/**
 * Starts the mock provider on 127.0.0.1 and an ephemeral port.
 * @param {{ latencyMs?: number, streamChunks?: number }} options
 */
export async function startMockProvider({ latencyMs = 0, streamChunks = 8 } = {}) {
  const server = createServer((request, response) => {
    const chunks = [];
    request.on("data", (chunk) => chunks.push(chunk));
    request.on("end", () => {
      let body = {};
      try {
        body = JSON.parse(Buffer.concat(chunks).toString("utf8") || "{}");
      } catch {
        response.writeHead(400, { "content-type": "application/json" });
        response.end(JSON.stringify({ error: { message: "bad json", type: "invalid_request_error", param: null, code: null } }));
        return;
      }
      const answer = () => (body.stream ? sendStream(response, body) : sendJson(response, body));
      if (latencyMs > 0) setTimeout(answer, latencyMs);
      else answer();
    });
  });

  function sendJson(response, body) {
    const payload = JSON.stringify({
      id: "chatcmpl-bench",
      object: "chat.completion",
      created: 1_700_000_000,
      model: body.model ?? "bench",
      choices: [{ index: 0, message: { role: "assistant", content: "Hello from the benchmark provider.", refusal: null }, logprobs: null, finish_reason: "stop" }],
      usage: { prompt_tokens: 12, completion_tokens: 7, total_tokens: 19, prompt_tokens_details: { cached_tokens: 0 }, completion_tokens_details: { reasoning_tokens: 0 } },
    });
    response.writeHead(200, { "content-type": "application/json", "content-length": Buffer.byteLength(payload) });
    response.end(payload);
  }

  function sendStream(response, body) {
    response.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
    const base = { id: "chatcmpl-bench", object: "chat.completion.chunk", created: 1_700_000_000, model: body.model ?? "bench" };
    response.write(`data: ${JSON.stringify({ ...base, choices: [{ index: 0, delta: { role: "assistant", content: "" }, finish_reason: null }] })}\n\n`);
    for (let index = 0; index < streamChunks; index += 1) {
      response.write(`data: ${JSON.stringify({ ...base, choices: [{ index: 0, delta: { content: `token${index} ` }, finish_reason: null }] })}\n\n`);
    }
    response.write(`data: ${JSON.stringify({ ...base, choices: [{ index: 0, delta: {}, finish_reason: "stop" }] })}\n\n`);
    if (body.stream_options?.include_usage) {
      response.write(`data: ${JSON.stringify({ ...base, choices: [], usage: { prompt_tokens: 12, completion_tokens: streamChunks, total_tokens: 12 + streamChunks } })}\n\n`);
    }
    response.end("data: [DONE]\n\n");
  }

  server.keepAliveTimeout = 60_000;
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address();
  return {
    url: `http://127.0.0.1:${port}`,
    close: () => new Promise((resolve) => { server.closeAllConnections(); server.close(resolve); }),
  };
}

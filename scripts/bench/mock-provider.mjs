// A local OpenAI-compatible provider for benchmarks: fixed latency, JSON or SSE answers, for chat
// completions and (any path ending in /responses) the Responses API.
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
      const responses = (request.url ?? "").endsWith("/responses");
      const answer = () =>
        responses ? (body.stream ? sendResponsesStream(response, body) : sendResponsesJson(response, body)) : body.stream ? sendStream(response, body) : sendJson(response, body);
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

  /** An OpenAI Responses `response` object (the Responses API, `POST /responses`). */
  function responseObject(body, status, output, usage) {
    return {
      id: "resp_bench", object: "response", created_at: 1_700_000_000, status, background: false, error: null, incomplete_details: null,
      instructions: null, max_output_tokens: null, model: body.model ?? "bench", output, parallel_tool_calls: true, previous_response_id: null,
      reasoning: { effort: null, summary: null }, store: false, temperature: 1, text: { format: { type: "text" } }, tool_choice: "auto", tools: [],
      top_p: 1, truncation: "disabled", usage, metadata: {},
    };
  }
  const responsesUsage = (output) => ({ input_tokens: 12, input_tokens_details: { cached_tokens: 0 }, output_tokens: output, output_tokens_details: { reasoning_tokens: 0 }, total_tokens: 12 + output });
  const message = (text) => ({ id: "msg_bench", type: "message", status: "completed", role: "assistant", content: [{ type: "output_text", annotations: [], logprobs: [], text }] });

  function sendResponsesJson(response, body) {
    const payload = JSON.stringify(responseObject(body, "completed", [message("Hello from the benchmark provider.")], responsesUsage(7)));
    response.writeHead(200, { "content-type": "application/json", "content-length": Buffer.byteLength(payload) });
    response.end(payload);
  }

  function sendResponsesStream(response, body) {
    response.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
    let sequence = 0;
    const write = (type, payload) => response.write(`event: ${type}\ndata: ${JSON.stringify({ type, sequence_number: sequence++, ...payload })}\n\n`);
    write("response.created", { response: responseObject(body, "in_progress", [], null) });
    write("response.output_item.added", { output_index: 0, item: { ...message(""), status: "in_progress", content: [] } });
    write("response.content_part.added", { item_id: "msg_bench", output_index: 0, content_index: 0, part: { type: "output_text", annotations: [], logprobs: [], text: "" } });
    let text = "";
    for (let index = 0; index < streamChunks; index += 1) {
      text += `token${index} `;
      write("response.output_text.delta", { item_id: "msg_bench", output_index: 0, content_index: 0, delta: `token${index} `, logprobs: [] });
    }
    write("response.output_text.done", { item_id: "msg_bench", output_index: 0, content_index: 0, text, logprobs: [] });
    write("response.output_item.done", { output_index: 0, item: message(text) });
    write("response.completed", { response: responseObject(body, "completed", [message(text)], responsesUsage(streamChunks)) });
    response.end();
  }

  server.keepAliveTimeout = 60_000;
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address();
  return {
    url: `http://127.0.0.1:${port}`,
    close: () => new Promise((resolve) => { server.closeAllConnections(); server.close(resolve); }),
  };
}

// A local provider for benchmarks and `pnpm fuzz`: fixed latency, JSON or SSE answers, for OpenAI
// chat completions, the Responses API (any path ending in /responses) and embeddings, Anthropic
// messages and count_tokens, the System One decision contract, and JSON answers of Amazon
// Bedrock's Converse and the Gemini API's generateContent. Whatever JSON it receives, it
// answers (an unusable body gets the provider's own 400), so a gateway in front of it never sees
// a provider that fails because of what a client sent.
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
        body = null;
      }
      if (body === null || typeof body !== "object" || Array.isArray(body)) {
        response.writeHead(400, { "content-type": "application/json" });
        response.end(JSON.stringify({ error: { message: "bad json", type: "invalid_request_error", param: null, code: null } }));
        return;
      }
      const path = (request.url ?? "").split("?")[0];
      const answer = () => {
        // Amazon Bedrock's Converse and the Gemini API's generateContent (JSON answers: the bench's translated rows).
        if (path.startsWith("/model/") && path.endsWith("/converse")) return sendConverseJson(response);
        if (path.endsWith(":generateContent")) return sendGeminiJson(response, path);
        if (path.endsWith("/messages/count_tokens")) return sendJsonBody(response, { input_tokens: 12 });
        if (path.endsWith("/messages")) return body.stream === true ? sendAnthropicStream(response, body) : sendAnthropicJson(response, body);
        if (path.endsWith("/embeddings")) return sendEmbeddings(response, body);
        if (path.endsWith("/systemone")) return sendDecision(response, body);
        if (path.endsWith("/responses")) return body.stream ? sendResponsesStream(response, body) : sendResponsesJson(response, body);
        return body.stream ? sendStream(response, body) : sendJson(response, body);
      };
      if (latencyMs > 0) setTimeout(answer, latencyMs);
      else answer();
    });
  });

  function sendJsonBody(response, value) {
    const payload = JSON.stringify(value);
    response.writeHead(200, { "content-type": "application/json", "content-length": Buffer.byteLength(payload) });
    response.end(payload);
  }

  const modelOf = (body) => (typeof body.model === "string" ? body.model : "bench");

  function sendAnthropicJson(response, body) {
    sendJsonBody(response, {
      id: "msg_bench", type: "message", role: "assistant", model: modelOf(body), content: [{ type: "text", text: "Hello from the benchmark provider." }],
      stop_reason: "end_turn", stop_sequence: null, usage: { input_tokens: 12, output_tokens: 7 },
    });
  }

  function sendConverseJson(response) {
    sendJsonBody(response, {
      output: { message: { role: "assistant", content: [{ text: "Hello from the benchmark provider." }] } },
      stopReason: "end_turn", usage: { inputTokens: 12, outputTokens: 7, totalTokens: 19 }, metrics: { latencyMs: latencyMs },
    });
  }

  function sendGeminiJson(response, path) {
    sendJsonBody(response, {
      candidates: [{ content: { role: "model", parts: [{ text: "Hello from the benchmark provider." }] }, finishReason: "STOP", index: 0 }],
      usageMetadata: { promptTokenCount: 12, candidatesTokenCount: 7, totalTokenCount: 19 }, modelVersion: path.split("/").at(-1)?.split(":")[0] ?? "bench",
    });
  }

  function sendAnthropicStream(response, body) {
    response.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
    const write = (type, payload) => response.write(`event: ${type}\ndata: ${JSON.stringify({ type, ...payload })}\n\n`);
    write("message_start", { message: { id: "msg_bench", type: "message", role: "assistant", model: modelOf(body), content: [], stop_reason: null, stop_sequence: null, usage: { input_tokens: 12, output_tokens: 1 } } });
    write("content_block_start", { index: 0, content_block: { type: "text", text: "" } });
    for (let index = 0; index < streamChunks; index += 1) write("content_block_delta", { index: 0, delta: { type: "text_delta", text: `token${index} ` } });
    write("content_block_stop", { index: 0 });
    write("message_delta", { delta: { stop_reason: "end_turn", stop_sequence: null }, usage: { output_tokens: streamChunks } });
    write("message_stop", {});
    response.end();
  }

  function sendEmbeddings(response, body) {
    const inputs = Array.isArray(body.input) ? body.input : [body.input];
    sendJsonBody(response, {
      object: "list", model: modelOf(body), data: inputs.map((_input, index) => ({ object: "embedding", index, embedding: [0.1, -0.2, 0.3] })),
      usage: { prompt_tokens: 3 * inputs.length, total_tokens: 3 * inputs.length },
    });
  }

  /** System One: answers every question (noul 0.25, the first choice, the first score). */
  function sendDecision(response, body) {
    const questions = body.questions !== null && typeof body.questions === "object" ? body.questions : {};
    const answers = {};
    for (const [key, question] of Object.entries(questions)) {
      const kind = question?.type;
      const criteria = question?.criteria !== null && typeof question?.criteria === "object" ? question.criteria : {};
      const value = kind === "noul" ? { type: "noul", noul: 0.25 } : kind === "choice" ? { type: "choice", choice: Object.keys(criteria)[0] ?? "" } : { type: "score", score: 1 };
      Object.defineProperty(answers, key, { value, enumerable: true, writable: true, configurable: true });
    }
    sendJsonBody(response, { answers, model: modelOf(body), usage: { input_tokens: 30, output_tokens: 3, total_tokens: 33 } });
  }

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

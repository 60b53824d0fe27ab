import { type IncomingHttpHeaders, type ServerResponse, createServer } from "node:http";
import type { AddressInfo } from "node:net";

/** A request a fake provider received, and when its connection closed. */
export interface WireRequest {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  body: any;
  /** Epoch ms (performance clock) at which the gateway's socket to the provider closed, once it has. */
  closedAt: number | null;
  /** Whether the fake finished writing its answer before the socket closed. */
  finished: boolean;
}

/** Answers one request: write the response (it may stay open to simulate a slow stream). */
export type WireHandler = (request: WireRequest, response: ServerResponse) => void | Promise<void>;

/** A local server on port 0 that speaks one provider's wire format. */
export interface WireProvider {
  url: string;
  requests: WireRequest[];
  /** Replaces the handler (null restores the default). */
  use(handler: WireHandler | null): void;
  close(): Promise<void>;
}

/** Starts a fake provider. */
export async function startWireProvider(defaultHandler: WireHandler): Promise<WireProvider> {
  const requests: WireRequest[] = [];
  let handler = defaultHandler;
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      const text = Buffer.concat(chunks).toString("utf8");
      let body: unknown = text;
      try {
        body = text === "" ? undefined : JSON.parse(text);
      } catch {
        // keep the raw text
      }
      const recorded: WireRequest = {
        method: request.method ?? "GET",
        path: request.url ?? "/",
        headers: request.headers,
        body,
        closedAt: null,
        finished: false,
      };
      requests.push(recorded);
      response.on("finish", () => void (recorded.finished = true));
      response.on("close", () => void (recorded.closedAt ??= performance.now()));
      void handler(recorded, response);
    });
  });
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    requests,
    use(next) {
      handler = next ?? defaultHandler;
    },
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** Writes a JSON answer. */
export function sendJson(response: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const payload = JSON.stringify(body);
  response.writeHead(status, { "content-type": "application/json", "content-length": Buffer.byteLength(payload), ...headers });
  response.end(payload);
}

/** One SSE frame: a named event (Anthropic) or a bare `data:` line (OpenAI). */
export function sseFrame(data: unknown, event?: string): string {
  return `${event === undefined ? "" : `event: ${event}\n`}data: ${typeof data === "string" ? data : JSON.stringify(data)}\n\n`;
}

/** Writes SSE frames (with a short pause between them, so they arrive as separate reads), then ends unless `keepOpen`. */
export async function sendEvents(response: ServerResponse, frames: string[], options: { keepOpen?: boolean; pauseMs?: number } = {}): Promise<void> {
  response.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache", connection: "keep-alive" });
  for (const frame of frames) {
    if (response.destroyed) return;
    response.write(frame);
    await new Promise((resolve) => setTimeout(resolve, options.pauseMs ?? 2));
  }
  if (!options.keepOpen) response.end();
}

// ---------------------------------------------------------------------------------------------
// OpenAI Chat Completions

const created = 1_700_000_000;

/** OpenAI usage with cached tokens. */
export const openAiUsage = {
  prompt_tokens: 30,
  completion_tokens: 9,
  total_tokens: 39,
  prompt_tokens_details: { cached_tokens: 10, audio_tokens: 0 },
  completion_tokens_details: { reasoning_tokens: 0, audio_tokens: 0, accepted_prediction_tokens: 0, rejected_prediction_tokens: 0 },
};

/** The text the fake OpenAI answers, in stream pieces. */
export const openAiTextPieces = ["Hello", " from", " the OpenAI", " mock."];

/**
 * OpenAI `POST /v1/chat/completions`: a text answer, or (when `tools` are given and the last
 * message is from the user) two parallel tool calls; streamed exactly as OpenAI streams
 * (role chunk, content or tool-call fragments with `index`, finish chunk, optional usage chunk
 * with `choices: []`, `[DONE]`).
 */
export function openAiHandler(): WireHandler {
  return async (request, response) => {
    if (request.method !== "POST" || request.path !== "/v1/chat/completions") {
      sendJson(response, 404, { error: { message: "Unknown path", type: "invalid_request_error", param: null, code: null } });
      return;
    }
    const body = request.body as { model: string; stream?: boolean; tools?: unknown[]; messages: { role: string }[]; stream_options?: { include_usage?: boolean } };
    const wantsTools = Array.isArray(body.tools) && body.tools.length > 0 && body.messages.at(-1)?.role === "user";
    const id = "chatcmpl-mock";
    const toolCalls = [
      { id: "call_weather_paris", type: "function", function: { name: "get_weather", arguments: '{"city":"Paris"}' } },
      { id: "call_weather_rome", type: "function", function: { name: "get_weather", arguments: '{"city":"Rome"}' } },
    ];
    if (body.stream !== true) {
      sendJson(response, 200, {
        id,
        object: "chat.completion",
        created,
        model: body.model,
        choices: [
          {
            index: 0,
            message: wantsTools
              ? { role: "assistant", content: null, refusal: null, tool_calls: toolCalls, annotations: [] }
              : { role: "assistant", content: openAiTextPieces.join(""), refusal: null, annotations: [] },
            logprobs: null,
            finish_reason: wantsTools ? "tool_calls" : "stop",
          },
        ],
        usage: openAiUsage,
        service_tier: "default",
        system_fingerprint: "fp_mock",
      });
      return;
    }
    const includeUsage = body.stream_options?.include_usage === true;
    const chunk = (choices: unknown[], extra: Record<string, unknown> = includeUsage ? { usage: null } : {}) =>
      sseFrame({ id, object: "chat.completion.chunk", created, model: body.model, service_tier: "default", system_fingerprint: "fp_mock", choices, ...extra });
    const frames = [chunk([{ index: 0, delta: { role: "assistant", content: "", refusal: null }, logprobs: null, finish_reason: null }])];
    if (wantsTools) {
      toolCalls.forEach((call, index) => {
        frames.push(
          chunk([{ index: 0, delta: { tool_calls: [{ index, id: call.id, type: "function", function: { name: call.function.name, arguments: "" } }] }, logprobs: null, finish_reason: null }]),
        );
        for (const piece of [call.function.arguments.slice(0, 5), call.function.arguments.slice(5)]) {
          frames.push(chunk([{ index: 0, delta: { tool_calls: [{ index, function: { arguments: piece } }] }, logprobs: null, finish_reason: null }]));
        }
      });
    } else {
      for (const piece of openAiTextPieces) frames.push(chunk([{ index: 0, delta: { content: piece }, logprobs: null, finish_reason: null }]));
    }
    frames.push(chunk([{ index: 0, delta: {}, logprobs: null, finish_reason: wantsTools ? "tool_calls" : "stop" }]));
    if (includeUsage) frames.push(chunk([], { usage: openAiUsage }));
    frames.push(sseFrame("[DONE]"));
    await sendEvents(response, frames);
  };
}

/** An OpenAI stream of chat chunks with the given content pieces (no usage, no end unless `end`). */
export function openAiContentFrames(model: string, pieces: string[], options: { end?: boolean } = {}): string[] {
  const chunk = (choices: unknown[]) => sseFrame({ id: "chatcmpl-mock", object: "chat.completion.chunk", created, model, choices });
  const frames = [chunk([{ index: 0, delta: { role: "assistant", content: "" }, logprobs: null, finish_reason: null }])];
  for (const piece of pieces) frames.push(chunk([{ index: 0, delta: { content: piece }, logprobs: null, finish_reason: null }]));
  if (options.end) {
    frames.push(chunk([{ index: 0, delta: {}, logprobs: null, finish_reason: "stop" }]));
    frames.push(sseFrame({ id: "chatcmpl-mock", object: "chat.completion.chunk", created, model, choices: [], usage: openAiUsage }));
    frames.push(sseFrame("[DONE]"));
  }
  return frames;
}

// ---------------------------------------------------------------------------------------------
// Anthropic Messages

/** Anthropic usage with cache reads and writes. */
export const anthropicUsage = { input_tokens: 25, cache_creation_input_tokens: 3, cache_read_input_tokens: 10, output_tokens: 15 };

/** The text the fake Anthropic answers, in stream pieces. */
export const anthropicTextPieces = ["Hello", " from", " the Anthropic", " mock."];

/**
 * Anthropic `POST /v1/messages` (text, or a `tool_use` block when `tools` are given and the
 * last message is from the user) and `POST /v1/messages/count_tokens`; streams exactly as
 * Anthropic does, `ping` events included.
 */
export function anthropicHandler(): WireHandler {
  return async (request, response) => {
    if (request.method === "POST" && request.path === "/v1/messages/count_tokens") {
      const body = request.body as Record<string, unknown>;
      if ("max_tokens" in body) {
        sendJson(response, 400, { type: "error", error: { type: "invalid_request_error", message: "max_tokens: Extra inputs are not permitted" } });
        return;
      }
      sendJson(response, 200, { input_tokens: 42 });
      return;
    }
    if (request.method !== "POST" || request.path !== "/v1/messages") {
      sendJson(response, 404, { type: "error", error: { type: "not_found_error", message: "Unknown path" } });
      return;
    }
    const body = request.body as { model: string; stream?: boolean; tools?: unknown[]; messages: { role: string; content: unknown }[] };
    const lastContent = body.messages.at(-1)?.content;
    const lastIsToolResult = Array.isArray(lastContent) && lastContent.some((block: { type?: string }) => block.type === "tool_result");
    const wantsTools = Array.isArray(body.tools) && body.tools.length > 0 && !lastIsToolResult;
    const message = {
      id: "msg_mock",
      type: "message",
      role: "assistant",
      model: body.model,
      content: wantsTools
        ? [
            { type: "text", text: "Let me check." },
            { type: "tool_use", id: "toolu_paris", name: "get_weather", input: { city: "Paris" } },
          ]
        : [{ type: "text", text: anthropicTextPieces.join("") }],
      stop_reason: wantsTools ? "tool_use" : "end_turn",
      stop_sequence: null,
      usage: anthropicUsage,
    };
    if (body.stream !== true) {
      sendJson(response, 200, message, { "request-id": "req_upstream_anthropic" });
      return;
    }
    const frames = [
      sseFrame({ type: "message_start", message: { ...message, content: [], stop_reason: null, usage: { ...anthropicUsage, output_tokens: 1 } } }, "message_start"),
      sseFrame({ type: "content_block_start", index: 0, content_block: { type: "text", text: "" } }, "content_block_start"),
      sseFrame({ type: "ping" }, "ping"),
    ];
    const textPieces = wantsTools ? ["Let me", " check."] : anthropicTextPieces;
    for (const piece of textPieces) frames.push(sseFrame({ type: "content_block_delta", index: 0, delta: { type: "text_delta", text: piece } }, "content_block_delta"));
    frames.push(sseFrame({ type: "content_block_stop", index: 0 }, "content_block_stop"));
    if (wantsTools) {
      frames.push(sseFrame({ type: "content_block_start", index: 1, content_block: { type: "tool_use", id: "toolu_paris", name: "get_weather", input: {} } }, "content_block_start"));
      for (const piece of ['{"ci', 'ty": "Par', 'is"}']) {
        frames.push(sseFrame({ type: "content_block_delta", index: 1, delta: { type: "input_json_delta", partial_json: piece } }, "content_block_delta"));
      }
      frames.push(sseFrame({ type: "content_block_stop", index: 1 }, "content_block_stop"));
    }
    frames.push(sseFrame({ type: "ping" }, "ping"));
    frames.push(
      sseFrame(
        { type: "message_delta", delta: { stop_reason: wantsTools ? "tool_use" : "end_turn", stop_sequence: null }, usage: { output_tokens: anthropicUsage.output_tokens } },
        "message_delta",
      ),
    );
    frames.push(sseFrame({ type: "message_stop" }, "message_stop"));
    await sendEvents(response, frames);
  };
}

/** An Anthropic stream that starts, sends some text, then an in-stream `error` event (overloaded). */
export function anthropicFailingStream(model: string): string[] {
  return [
    sseFrame({ type: "message_start", message: { id: "msg_fail", type: "message", role: "assistant", model, content: [], stop_reason: null, stop_sequence: null, usage: { input_tokens: 20, output_tokens: 1 } } }, "message_start"),
    sseFrame({ type: "content_block_start", index: 0, content_block: { type: "text", text: "" } }, "content_block_start"),
    sseFrame({ type: "content_block_delta", index: 0, delta: { type: "text_delta", text: "Partial" } }, "content_block_delta"),
    sseFrame({ type: "ping" }, "ping"),
    sseFrame({ type: "error", error: { type: "overloaded_error", message: "Overloaded" } }, "error"),
  ];
}

// ---------------------------------------------------------------------------------------------
// OpenAI Responses (native) and embeddings

/** OpenAI Responses usage with cached and reasoning tokens. */
export const responsesUsage = {
  input_tokens: 30,
  input_tokens_details: { cached_tokens: 10 },
  output_tokens: 9,
  output_tokens_details: { reasoning_tokens: 2 },
  total_tokens: 39,
};

/** The text the fake Responses API answers, in stream pieces. */
export const responsesTextPieces = ["Hello", " from", " the Responses", " mock."];

/** A Responses `response` object as OpenAI answers it. */
export function responsesObject(fields: { id: string; model: string; status: string; output: unknown[]; request: Record<string, any>; usage?: unknown }): Record<string, unknown> {
  return {
    id: fields.id,
    object: "response",
    created_at: created,
    status: fields.status,
    background: false,
    error: null,
    incomplete_details: null,
    instructions: fields.request.instructions ?? null,
    max_output_tokens: fields.request.max_output_tokens ?? null,
    max_tool_calls: null,
    model: fields.model,
    output: fields.output,
    parallel_tool_calls: true,
    previous_response_id: fields.request.previous_response_id ?? null,
    reasoning: { effort: null, summary: null },
    service_tier: "default",
    store: fields.request.store ?? true,
    temperature: 1,
    text: { format: { type: "text" }, verbosity: "medium" },
    tool_choice: fields.request.tool_choice ?? "auto",
    tools: fields.request.tools ?? [],
    top_logprobs: 0,
    top_p: 1,
    truncation: "disabled",
    usage: fields.usage ?? null,
    user: null,
    metadata: fields.request.metadata ?? {},
  };
}

/**
 * OpenAI `POST /v1/responses` (a text answer, or a `get_weather` function call when `tools` are
 * given and the last input item is not a `function_call_output`), streamed exactly as OpenAI
 * streams (named events with `sequence_number`, no `[DONE]`), and `POST /v1/embeddings` (float or
 * base64 vectors of `dimensions`, default 3).
 */
export function responsesHandler(): WireHandler {
  return async (request, response) => {
    if (request.method === "POST" && request.path === "/v1/embeddings") {
      const body = request.body as { model: string; input: string | string[]; dimensions?: number; encoding_format?: string };
      const inputs = typeof body.input === "string" ? [body.input] : body.input;
      const dimensions = body.dimensions ?? 3;
      sendJson(response, 200, {
        object: "list",
        data: inputs.map((_input, index) => {
          const vector = Array.from({ length: dimensions }, (_value, position) => (index + 1) / (position + 2));
          return { object: "embedding", index, embedding: body.encoding_format === "base64" ? Buffer.from(new Float32Array(vector).buffer).toString("base64") : vector };
        }),
        model: body.model,
        usage: { prompt_tokens: 8 * inputs.length, total_tokens: 8 * inputs.length },
      });
      return;
    }
    if (request.method !== "POST" || request.path !== "/v1/responses") {
      sendJson(response, 404, { error: { message: "Unknown path", type: "invalid_request_error", param: null, code: null } });
      return;
    }
    const body = request.body as Record<string, any>;
    const input = Array.isArray(body.input) ? body.input : [];
    const wantsTools = Array.isArray(body.tools) && body.tools.length > 0 && input.at(-1)?.type !== "function_call_output";
    const id = `resp_mock_${request.headers["x-test-turn"] ?? Math.random().toString(36).slice(2, 10)}`;
    const text = responsesTextPieces.join("");
    const message = { id: "msg_mock_1", type: "message", status: "completed", content: [{ type: "output_text", annotations: [], logprobs: [], text }], role: "assistant" };
    const call = { id: "fc_mock_1", type: "function_call", status: "completed", arguments: '{"city":"Paris"}', call_id: "call_weather_paris", name: "get_weather" };
    const final = responsesObject({ id, model: body.model, status: "completed", output: [wantsTools ? call : message], request: body, usage: responsesUsage });
    if (body.stream !== true) {
      sendJson(response, 200, final);
      return;
    }
    let sequence = 0;
    const event = (type: string, payload: Record<string, unknown>) => sseFrame({ type, sequence_number: sequence++, ...payload }, type);
    const started = responsesObject({ id, model: body.model, status: "in_progress", output: [], request: body });
    const frames = [event("response.created", { response: started }), event("response.in_progress", { response: started })];
    if (wantsTools) {
      frames.push(event("response.output_item.added", { output_index: 0, item: { ...call, status: "in_progress", arguments: "" } }));
      for (const piece of ['{"ci', 'ty":"Par', 'is"}']) frames.push(event("response.function_call_arguments.delta", { item_id: call.id, output_index: 0, delta: piece }));
      frames.push(event("response.function_call_arguments.done", { item_id: call.id, output_index: 0, arguments: call.arguments }));
      frames.push(event("response.output_item.done", { output_index: 0, item: call }));
    } else {
      frames.push(event("response.output_item.added", { output_index: 0, item: { ...message, status: "in_progress", content: [] } }));
      frames.push(event("response.content_part.added", { item_id: message.id, output_index: 0, content_index: 0, part: { type: "output_text", annotations: [], logprobs: [], text: "" } }));
      for (const piece of responsesTextPieces) frames.push(event("response.output_text.delta", { item_id: message.id, output_index: 0, content_index: 0, delta: piece, logprobs: [] }));
      frames.push(event("response.output_text.done", { item_id: message.id, output_index: 0, content_index: 0, text, logprobs: [] }));
      frames.push(event("response.content_part.done", { item_id: message.id, output_index: 0, content_index: 0, part: message.content[0] }));
      frames.push(event("response.output_item.done", { output_index: 0, item: message }));
    }
    frames.push(event("response.completed", { response: final }));
    await sendEvents(response, frames);
  };
}

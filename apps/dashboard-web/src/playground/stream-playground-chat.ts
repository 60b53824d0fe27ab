import { ApiError } from "../api/api-error.js";
import type { RequestBody } from "../api/api-types.js";
import { readServerSentEvents } from "./read-server-sent-events.js";

/** The playground request (the OpenAI chat fields plus `api_key_id`). */
export type PlaygroundChatRequest = RequestBody<"/api/playground/chat", "post">;

/** Token usage of a finished chat (OpenAI's names). */
export interface ChatUsage {
  prompt_tokens: number;
  completion_tokens: number;
  total_tokens: number;
}

/** What a finished playground chat answered. */
export interface PlaygroundChatResult {
  content: string;
  finishReason: string | null;
  usage: ChatUsage | null;
  /** The dashboard's (and the gateway pipeline's) request id of the call. */
  requestId: string | null;
  /** `x-gateway-provider`: the connection that answered. */
  provider: string | null;
  /** The served model, as the provider reported it. */
  model: string | null;
}

interface ChatChunk {
  model?: string;
  choices?: { delta?: { content?: string | null }; message?: { content?: string | null }; finish_reason?: string | null }[];
  usage?: ChatUsage | null;
}

/**
 * Runs one playground chat through `POST /api/playground/chat`. With `stream: true` it reads the
 * server-sent chat completion chunks and reports each text delta as it arrives (usage comes in
 * the last chunk: `stream_options.include_usage`); an `event: error` frame after the start
 * becomes an {@link ApiError} like an error answer before it.
 */
export async function streamPlaygroundChat(options: {
  request: PlaygroundChatRequest;
  onDelta?: (text: string) => void;
  signal?: AbortSignal;
  fetch?: typeof fetch;
}): Promise<PlaygroundChatResult> {
  const request = options.request.stream ? { ...options.request, stream_options: { include_usage: true } } : options.request;
  let response: Response;
  try {
    response = await (options.fetch ?? fetch)("/api/playground/chat", {
      method: "POST",
      headers: { "content-type": "application/json", accept: options.request.stream ? "text/event-stream" : "application/json" },
      body: JSON.stringify(request),
      credentials: "same-origin",
      signal: options.signal ?? null,
    });
  } catch (error) {
    if ((error as Error).name === "AbortError") throw error;
    throw ApiError.network(error);
  }
  const requestId = response.headers.get("x-request-id");
  const result: PlaygroundChatResult = { content: "", finishReason: null, usage: null, requestId, provider: response.headers.get("x-gateway-provider"), model: null };
  if (!response.ok) {
    const body = await response.json().catch(() => null);
    throw ApiError.fromResponse(response, body);
  }
  const isStream = (response.headers.get("content-type") ?? "").startsWith("text/event-stream");
  if (!isStream || response.body === null) {
    const completion = (await response.json()) as ChatChunk;
    const choice = completion.choices?.[0];
    result.content = choice?.message?.content ?? "";
    options.onDelta?.(result.content);
    result.finishReason = choice?.finish_reason ?? null;
    result.usage = completion.usage ?? null;
    result.model = completion.model ?? null;
    return result;
  }
  for await (const event of readServerSentEvents(response.body)) {
    if (event.event === "error") {
      const body = JSON.parse(event.data) as { error?: { code?: string; message?: string } };
      throw new ApiError({ status: 200, code: body.error?.code ?? "stream_error", message: body.error?.message ?? "The stream failed.", requestId });
    }
    if (event.data === "[DONE]") break;
    const chunk = JSON.parse(event.data) as ChatChunk;
    result.model ??= chunk.model ?? null;
    if (chunk.usage) result.usage = chunk.usage;
    for (const choice of chunk.choices ?? []) {
      const text = choice.delta?.content ?? "";
      if (text !== "") {
        result.content += text;
        options.onDelta?.(text);
      }
      if (choice.finish_reason) result.finishReason = choice.finish_reason;
    }
  }
  return result;
}

import type { StreamFormat, StreamRenderer } from "../stream/stream-part.js";
import { chatCompletionsFormat } from "./chat-completions/chat-completions-format.js";
import { messagesFormat } from "./messages/messages-format.js";
import { responsesFormat } from "./responses/responses-format.js";

/** Options of {@link createStreamRenderer}. */
export interface StreamRendererOptions {
  /** The wire format the upstream streamed (the frames' `source` events); null: frames of parts only (a neutral model's), always encoded. */
  from: StreamFormat | null;
  /** The caller's wire format. */
  to: StreamFormat;
  /** The gateway request id (error bodies, ids the upstream did not give). */
  requestId: string;
  /** The model name a translated stream reports (`<connection>/<vendor>/<model>`). */
  model: string;
  /** OpenAI callers: `stream_options.include_usage`. */
  includeUsage?: boolean;
  /** Responses callers: the request (its settings are echoed in translated response objects). */
  request?: Record<string, unknown>;
  /** Responses callers: fields set on every response object (the gateway's `store` and `previous_response_id`). */
  responseOverrides?: Record<string, unknown>;
}

/**
 * The renderer of a caller's stream: the provider's own bytes when both sides speak the same
 * format (native passthrough, changed only where a guardrail changed text), otherwise the
 * caller's format rendered from the typed parts (translation).
 */
export function createStreamRenderer(options: StreamRendererOptions): StreamRenderer {
  const includeUsage = options.includeUsage === true;
  if (options.to === "openai-responses") {
    const overrides = options.responseOverrides ?? {};
    return options.from === "openai-responses"
      ? responsesFormat.createPassthroughRenderer({ requestId: options.requestId, overrides })
      : responsesFormat.createStreamEncoder({ model: options.model, requestId: options.requestId, request: options.request ?? {}, overrides });
  }
  if (options.to === "openai-chat") {
    return options.from === "openai-chat"
      ? chatCompletionsFormat.createPassthroughRenderer({ requestId: options.requestId, includeUsage })
      : chatCompletionsFormat.createStreamEncoder({ model: options.model, requestId: options.requestId, includeUsage });
  }
  return options.from === "anthropic-messages"
    ? messagesFormat.createPassthroughRenderer({ requestId: options.requestId })
    : messagesFormat.createStreamEncoder({ model: options.model, requestId: options.requestId });
}

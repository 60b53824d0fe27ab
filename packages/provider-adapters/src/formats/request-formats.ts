import { chatCompletionsFormat } from "./chat-completions/chat-completions-format.js";
import { decisionsFormat } from "./decisions/decisions-format.js";
import { embeddingsFormat } from "./embeddings/embeddings-format.js";
import type { FormatTexts, RequestFormat, StreamingFormat } from "./format-texts.js";
import type { StreamFormat } from "../stream/stream-part.js";
import { mcpResultsFormat } from "./mcp-results/mcp-results-format.js";
import { messagesFormat } from "./messages/messages-format.js";
import { responsesFormat } from "./responses/responses-format.js";

/** The format module of each request format (an endpoint names its format; guardrails read its texts). */
export const formatOfRequest: Readonly<Record<RequestFormat, FormatTexts>> = {
  openai_chat: chatCompletionsFormat,
  anthropic_messages: messagesFormat,
  openai_responses: responsesFormat,
  openai_embeddings: embeddingsFormat,
  decision: decisionsFormat,
  mcp_call: mcpResultsFormat,
};

/** The format module of each stream format (what an upstream streams, what a caller wants). */
export const formatOfStream: Readonly<Record<StreamFormat, StreamingFormat>> = {
  "openai-chat": chatCompletionsFormat,
  "anthropic-messages": messagesFormat,
  "openai-responses": responsesFormat,
};

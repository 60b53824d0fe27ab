import { convertAnthropicResponseToChat } from "./convert-anthropic-response-to-chat.js";
import { convertChatRequestToAnthropic } from "./convert-chat-request-to-anthropic.js";
import { convertChatResponseToAnthropic } from "./convert-chat-response-to-anthropic.js";
import { convertMessagesRequestToChat } from "./convert-messages-request-to-chat.js";
import { createMessagesPassthroughRenderer } from "./create-messages-passthrough-renderer.js";
import { createMessagesStreamDecoder } from "./create-messages-stream-decoder.js";
import { createMessagesStreamEncoder } from "./create-messages-stream-encoder.js";
import { mapAnthropicStopReason } from "./map-anthropic-stop-reason.js";
import { chatShapedRequestMessages } from "../conversation-messages.js";
import { messagesAnswerMessages, messagesAnswerTexts, messagesRequestTexts } from "./messages-texts.js";
import { mergeMessagesUsage, normalizeMessagesUsage, renderMessagesUsage } from "./messages-usage.js";

/**
 * The Anthropic messages format (`POST /v1/messages`). Everything the gateway knows of it: request
 * and answer texts, request and answer conversation messages (tracing), translation of requests
 * and answers to and from chat completions, the stream decoder, encoder and passthrough renderer,
 * usage normalize / merge / render, and its stop reasons in the chat completions vocabulary.
 */
export const messagesFormat = {
  requestFormat: "anthropic_messages",
  streamFormat: "anthropic-messages",
  requestTexts: messagesRequestTexts,
  answerTexts: messagesAnswerTexts,
  requestMessages: chatShapedRequestMessages,
  answerMessages: messagesAnswerMessages,
  requestToChat: convertMessagesRequestToChat,
  requestFromChat: convertChatRequestToAnthropic,
  answerToChat: convertAnthropicResponseToChat,
  answerFromChat: convertChatResponseToAnthropic,
  createStreamDecoder: createMessagesStreamDecoder,
  createStreamEncoder: createMessagesStreamEncoder,
  createPassthroughRenderer: createMessagesPassthroughRenderer,
  normalizeUsage: normalizeMessagesUsage,
  mergeUsage: mergeMessagesUsage,
  renderUsage: renderMessagesUsage,
  toChatFinishReason: mapAnthropicStopReason,
} as const;

import { convertAnthropicResponseToChat } from "./convert-anthropic-response-to-chat.js";
import { convertChatRequestToAnthropic } from "./convert-chat-request-to-anthropic.js";
import { convertChatResponseToAnthropic } from "./convert-chat-response-to-anthropic.js";
import { convertMessagesRequestToChat } from "./convert-messages-request-to-chat.js";
import { createMessagesPassthroughRenderer } from "./create-messages-passthrough-renderer.js";
import { createMessagesStreamDecoder } from "./create-messages-stream-decoder.js";
import { createMessagesStreamEncoder } from "./create-messages-stream-encoder.js";
import { mapAnthropicStopReason } from "./map-anthropic-stop-reason.js";
import { chatShapedRequestMessages } from "../conversation-messages.js";
import { answerConversationOf } from "../answer-conversation.js";
import { answerTextsOf } from "../decoded-answer.js";
import { decodeMessagesAnswer } from "./decode-messages-answer.js";
import { messagesRequestTexts } from "./messages-texts.js";
import { mergeMessagesUsage, normalizeMessagesUsage, renderMessagesUsage } from "./messages-usage.js";

/**
 * The Anthropic messages format (`POST /v1/messages`). Everything the gateway knows of it: request
 * texts and conversation messages, JSON answers decoded into the parts of streams (guardrail
 * texts and trace messages read from them), translation of requests
 * and answers to and from chat completions, the stream decoder, encoder and passthrough renderer,
 * usage normalize / merge / render, and its stop reasons in the chat completions vocabulary.
 */
export const messagesFormat = {
  requestFormat: "anthropic_messages",
  streamFormat: "anthropic-messages",
  requestTexts: messagesRequestTexts,
  decodeAnswer: decodeMessagesAnswer,
  answerTexts: (body: unknown) => answerTextsOf(decodeMessagesAnswer(body)),
  requestMessages: chatShapedRequestMessages,
  answerMessages: (answer: unknown) => answerConversationOf(decodeMessagesAnswer(answer)),
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

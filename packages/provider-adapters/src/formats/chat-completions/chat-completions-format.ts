import { chatShapedRequestMessages } from "../conversation-messages.js";
import { answerConversationOf } from "../answer-conversation.js";
import { answerTextsOf } from "../decoded-answer.js";
import { chatRequestTexts } from "./chat-texts.js";
import { decodeChatAnswer } from "./decode-chat-answer.js";
import { normalizeChatUsage, renderChatUsage } from "./chat-usage.js";
import { createChatPassthroughRenderer } from "./create-chat-passthrough-renderer.js";
import { createChatStreamDecoder } from "./create-chat-stream-decoder.js";
import { createChatStreamEncoder } from "./create-chat-stream-encoder.js";
import { mapChatFinishReason } from "./map-chat-finish-reason.js";

/**
 * The OpenAI chat completions format (`POST /v1/chat/completions`), the gateway's pivot: the other
 * formats translate to and from it. Everything the gateway knows of it: request texts and
 * conversation messages, JSON answers decoded into the parts of streams (their texts for
 * guardrails and their messages for tracing read from those parts), the stream decoder (upstream
 * events -> parts), encoder (parts -> events) and passthrough renderer, usage normalize / render,
 * and its finish reasons in the messages vocabulary.
 */
export const chatCompletionsFormat = {
  requestFormat: "openai_chat",
  streamFormat: "openai-chat",
  requestTexts: chatRequestTexts,
  decodeAnswer: decodeChatAnswer,
  answerTexts: (body: unknown) => answerTextsOf(decodeChatAnswer(body)),
  requestMessages: chatShapedRequestMessages,
  answerMessages: (answer: unknown) => answerConversationOf(decodeChatAnswer(answer)),
  createStreamDecoder: createChatStreamDecoder,
  createStreamEncoder: createChatStreamEncoder,
  createPassthroughRenderer: createChatPassthroughRenderer,
  normalizeUsage: normalizeChatUsage,
  renderUsage: renderChatUsage,
  toMessagesStopReason: mapChatFinishReason,
} as const;

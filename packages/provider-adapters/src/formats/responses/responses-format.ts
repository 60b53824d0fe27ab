import { buildResponseObject } from "./build-response-object.js";
import { convertChatResponseToResponses } from "./convert-chat-response-to-responses.js";
import { convertResponsesRequestToChat } from "./convert-responses-request-to-chat.js";
import { createResponsesPassthroughRenderer } from "./create-responses-passthrough-renderer.js";
import { createResponsesStreamDecoder } from "./create-responses-stream-decoder.js";
import { createResponsesStreamEncoder } from "./create-responses-stream-encoder.js";
import { answerConversationOf } from "../answer-conversation.js";
import { answerTextsOf } from "../decoded-answer.js";
import { decodeResponsesAnswer } from "./decode-responses-answer.js";
import { responsesRequestMessages } from "./responses-messages.js";
import { responsesRequestTexts } from "./responses-texts.js";
import { normalizeResponsesUsage, renderResponsesUsage } from "./responses-usage.js";

/**
 * The OpenAI Responses format (`POST /v1/responses`). Everything the gateway knows of it: request
 * texts and conversation messages, JSON answers decoded into the parts of streams (guardrail
 * texts and trace messages read from them), translation of requests
 * to chat completions and of chat answers to response objects, the response object builder, the
 * stream decoder, encoder and passthrough renderer, and usage normalize / render.
 */
export const responsesFormat = {
  requestFormat: "openai_responses",
  streamFormat: "openai-responses",
  requestTexts: responsesRequestTexts,
  decodeAnswer: decodeResponsesAnswer,
  answerTexts: (body: unknown) => answerTextsOf(decodeResponsesAnswer(body)),
  requestMessages: responsesRequestMessages,
  answerMessages: (answer: unknown) => answerConversationOf(decodeResponsesAnswer(answer)),
  requestToChat: convertResponsesRequestToChat,
  answerFromChat: convertChatResponseToResponses,
  buildResponseObject,
  createStreamDecoder: createResponsesStreamDecoder,
  createStreamEncoder: createResponsesStreamEncoder,
  createPassthroughRenderer: createResponsesPassthroughRenderer,
  normalizeUsage: normalizeResponsesUsage,
  renderUsage: renderResponsesUsage,
} as const;

import { buildResponseObject } from "./build-response-object.js";
import { convertChatResponseToResponses } from "./convert-chat-response-to-responses.js";
import { convertResponsesRequestToChat } from "./convert-responses-request-to-chat.js";
import { createResponsesPassthroughRenderer } from "./create-responses-passthrough-renderer.js";
import { createResponsesStreamDecoder } from "./create-responses-stream-decoder.js";
import { createResponsesStreamEncoder } from "./create-responses-stream-encoder.js";
import { responsesAnswerMessages, responsesRequestMessages } from "./responses-messages.js";
import { responsesAnswerTexts, responsesRequestTexts } from "./responses-texts.js";
import { normalizeResponsesUsage, renderResponsesUsage } from "./responses-usage.js";

/**
 * The OpenAI Responses format (`POST /v1/responses`). Everything the gateway knows of it: request
 * and answer texts, request and answer conversation messages (tracing), translation of requests
 * to chat completions and of chat answers to response objects, the response object builder, the
 * stream decoder, encoder and passthrough renderer, and usage normalize / render.
 */
export const responsesFormat = {
  requestFormat: "openai_responses",
  streamFormat: "openai-responses",
  requestTexts: responsesRequestTexts,
  answerTexts: responsesAnswerTexts,
  requestMessages: responsesRequestMessages,
  answerMessages: responsesAnswerMessages,
  requestToChat: convertResponsesRequestToChat,
  answerFromChat: convertChatResponseToResponses,
  buildResponseObject,
  createStreamDecoder: createResponsesStreamDecoder,
  createStreamEncoder: createResponsesStreamEncoder,
  createPassthroughRenderer: createResponsesPassthroughRenderer,
  normalizeUsage: normalizeResponsesUsage,
  renderUsage: renderResponsesUsage,
} as const;

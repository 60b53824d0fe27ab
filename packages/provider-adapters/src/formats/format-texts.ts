import type { NormalizedUsage } from "@gateway/contracts";
import type { ConversationMessage } from "./conversation-messages.js";
import type { DecodedAnswer } from "./decoded-answer.js";
import type { StreamDecoder, StreamFormat, StreamRenderer } from "../stream/stream-part.js";
import type { TextSegment } from "./text-segments.js";

/** The request formats whose texts the format modules know (guardrails, redaction, capture). */
export type RequestFormat = "openai_chat" | "anthropic_messages" | "openai_responses" | "openai_embeddings" | "decision" | "mcp_call";

/**
 * What every format module knows of its texts: those a request sends to a model (input
 * guardrails, redaction) and those of a JSON answer (output guardrails), each with its path so
 * that a redaction is written back. Object keys are never texts; anything not listed (images,
 * ids, model names) is left alone.
 */
export interface FormatTexts {
  readonly requestFormat: RequestFormat;
  requestTexts(body: unknown): TextSegment[];
  answerTexts(body: unknown): TextSegment[];
}

/** A format without answer texts (embeddings vectors, decision answers). */
export function noTexts(): TextSegment[] {
  return [];
}

/**
 * What a streaming format module offers besides its texts: its conversation messages, its stream decoder (upstream events ->
 * parts), encoder (parts -> its events, translating) and passthrough renderer (the upstream's own
 * events, patched where parts changed), and its usage normalize / render.
 */
export interface StreamingFormat extends FormatTexts {
  /** The conversation a request sends (null when it has none), and an answer as messages (null for another shape). */
  requestMessages(request: unknown): ConversationMessage[] | null;
  answerMessages(answer: unknown): ConversationMessage[] | null;
  /** A JSON answer in the parts vocabulary of streams (the one reading its texts and messages come from). */
  decodeAnswer(answer: unknown): DecodedAnswer;
  readonly streamFormat: StreamFormat;
  createStreamDecoder(): StreamDecoder;
  createStreamEncoder(options: never): StreamRenderer;
  createPassthroughRenderer(options: never): StreamRenderer;
  normalizeUsage(usage: unknown): NormalizedUsage;
  renderUsage(usage: NormalizedUsage): object;
}

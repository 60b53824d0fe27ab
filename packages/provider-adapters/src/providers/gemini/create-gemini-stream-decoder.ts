import { isIndex, isJsonObject, parseEventData } from "../../stream/parse-event-data.js";
import type { SseEvent } from "../../stream/sse-event.js";
import { malformedStreamEventError, truncatedStreamError } from "../../stream/stream-errors.js";
import { type StreamDecoder, type StreamFrame, type StreamPart, errorFrame } from "../../stream/stream-part.js";
import { candidateParts, geminiToolCallId, promptBlockReason } from "./convert-gemini-response-to-chat.js";
import { normalizeGeminiUsage } from "./gemini-usage.js";
import { geminiBlockRefusal, mapGeminiFinishReason } from "./map-gemini-finish-reason.js";
import { gatewayErrorFromGeminiStreamError } from "./map-gemini-error.js";

/** A decoder of a stream that speaks no caller format (its frames carry parts only). */
export type NeutralStreamDecoder = Pick<StreamDecoder, "decode" | "finish" | "done">;

interface CandidateState {
  textOpen: boolean;
  calledFunctions: boolean;
  finished: boolean;
}

/**
 * The decoder of `streamGenerateContent?alt=sse`: every event is a whole
 * `GenerateContentResponse` (a chunk of the answer). Parts: `start` on the first chunk (its
 * `responseId` and `modelVersion`); `text-delta` for text parts, `reasoning-delta` for thought
 * parts; each `functionCall` part (Gemini sends calls whole) as `tool-call-start` (id generated
 * when absent), one `tool-call-delta` with the arguments' JSON and `tool-call-end` (a
 * `text-end` first when text was open); on a candidate's `finishReason`: `text-end`, `finish`
 * (see `mapGeminiFinishReason`; a filtered candidate that wrote nothing gets a refusal text
 * first); `usage` whenever a chunk has `usageMetadata` (cumulative); a blocked prompt
 * (`promptFeedback.blockReason`) a refusal and `finish: content_filter`. Gemini's stream has no
 * terminal event: `finish()` ends the answer when every candidate finished, else fails it
 * (truncated). `{"error": ...}` is the provider's own error (redacted of `secrets`); an event
 * that is not a JSON object, or has no candidates array, prompt feedback, usage or error, fails
 * the stream.
 */
export function createGeminiStreamDecoder(options: { secrets?: readonly (string | null | undefined)[] } = {}): NeutralStreamDecoder {
  let started = false;
  let toolIndex = 0;
  const candidates = new Map<number, CandidateState>();

  function fail(problem: string): StreamFrame {
    decoder.done = true;
    return errorFrame(malformedStreamEventError(problem));
  }

  function stateOf(index: number): CandidateState {
    let state = candidates.get(index);
    if (state === undefined) {
      state = { textOpen: false, calledFunctions: false, finished: false };
      candidates.set(index, state);
    }
    return state;
  }

  function decodeCandidate(candidate: Record<string, unknown>, choice: number, parts: StreamPart[]): void {
    const state = stateOf(choice);
    for (const part of candidateParts(candidate)) {
      if (typeof part.text === "string") {
        if (part.text === "") continue;
        if (part.thought === true) parts.push({ type: "reasoning-delta", choice, text: part.text });
        else {
          state.textOpen = true;
          parts.push({ type: "text-delta", choice, text: part.text });
        }
      } else if (isJsonObject(part.functionCall)) {
        if (state.textOpen) {
          parts.push({ type: "text-end", choice });
          state.textOpen = false;
        }
        const call = part.functionCall;
        const index = toolIndex++;
        state.calledFunctions = true;
        parts.push({ type: "tool-call-start", choice, toolIndex: index, id: geminiToolCallId(call.id), name: typeof call.name === "string" ? call.name : "" });
        parts.push({ type: "tool-call-delta", choice, toolIndex: index, argumentsDelta: JSON.stringify(isJsonObject(call.args) ? call.args : {}) });
        parts.push({ type: "tool-call-end", choice, toolIndex: index });
      }
    }
    const raw = typeof candidate.finishReason === "string" && candidate.finishReason !== "" ? candidate.finishReason : null;
    if (raw === null || state.finished) return;
    const reason = mapGeminiFinishReason(raw, state.calledFunctions);
    if (reason === "content_filter" && !state.textOpen && !state.calledFunctions) {
      parts.push({ type: "text-delta", choice, text: geminiBlockRefusal(raw), refusal: true });
      state.textOpen = true;
    }
    if (state.textOpen) parts.push({ type: "text-end", choice });
    state.textOpen = false;
    state.finished = true;
    parts.push({ type: "finish", choice, reason, raw });
  }

  const decoder: NeutralStreamDecoder & { done: boolean } = {
    done: false,
    decode(event: SseEvent): StreamFrame {
      const parsed = parseEventData(event.data);
      if ("problem" in parsed) return fail(parsed.problem);
      const { payload } = parsed;
      if (payload.error !== undefined && payload.error !== null) {
        decoder.done = true;
        return { source: event, payload, parts: [{ type: "error", error: gatewayErrorFromGeminiStreamError(payload, options.secrets ?? []) }] };
      }
      const rawCandidates = payload.candidates;
      if (rawCandidates !== undefined && !Array.isArray(rawCandidates)) return fail("candidates is not an array");
      const blocked = promptBlockReason(payload);
      if (rawCandidates === undefined && blocked === null && !isJsonObject(payload.usageMetadata)) return fail("a chunk without candidates, prompt feedback or usage");
      const parts: StreamPart[] = [];
      if (!started) {
        started = true;
        parts.push({ type: "start", id: typeof payload.responseId === "string" ? payload.responseId : null, model: typeof payload.modelVersion === "string" ? payload.modelVersion : null });
      }
      for (const [position, candidate] of (rawCandidates ?? []).entries()) {
        if (!isJsonObject(candidate)) return fail("a candidate is not an object");
        const choice = candidate.index === undefined ? position : candidate.index;
        if (!isIndex(choice)) return fail("a candidate index is not a non-negative integer");
        decodeCandidate(candidate, choice, parts);
      }
      if (blocked !== null && candidates.size === 0) {
        const state = stateOf(0);
        state.finished = true;
        parts.push({ type: "text-delta", choice: 0, text: geminiBlockRefusal(blocked), refusal: true }, { type: "text-end", choice: 0 });
        parts.push({ type: "finish", choice: 0, reason: "content_filter", raw: blocked });
      }
      if (isJsonObject(payload.usageMetadata)) parts.push({ type: "usage", usage: normalizeGeminiUsage(payload.usageMetadata) });
      return { source: event, payload, parts };
    },
    finish(): StreamFrame | null {
      if (decoder.done) return null;
      decoder.done = true;
      const finished = candidates.size > 0 && [...candidates.values()].every((state) => state.finished);
      return finished ? { source: null, payload: null, parts: [{ type: "end" }] } : errorFrame(truncatedStreamError());
    },
  };
  return decoder;
}

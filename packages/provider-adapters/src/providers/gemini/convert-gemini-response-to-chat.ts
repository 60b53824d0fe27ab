import { randomUUID } from "node:crypto";
import type { ChatCompletion, ChatCompletionChoice, ChatTokenLogprob, ChatToolCall } from "../../chat-request.js";
import { renderChatUsage } from "../../formats/chat-completions/chat-usage.js";
import { isJsonObject } from "../../formats/request-guards.js";
import { geminiBlockRefusal, mapGeminiFinishReason } from "./map-gemini-finish-reason.js";
import { normalizeGeminiUsage } from "./gemini-usage.js";

/** A tool call id for a Gemini function call without one (Gemini matches results by name). */
export function geminiToolCallId(id: unknown): string {
  return typeof id === "string" && id !== "" ? id : `call_${randomUUID().replaceAll("-", "").slice(0, 24)}`;
}

/** The parts of a candidate's content (empty when it has none). */
export function candidateParts(candidate: Record<string, unknown>): Record<string, unknown>[] {
  const content = isJsonObject(candidate.content) ? candidate.content : {};
  return Array.isArray(content.parts) ? content.parts.filter(isJsonObject) : [];
}

/** The block reason of a prompt Gemini refused to answer (`promptFeedback.blockReason`), or null. */
export function promptBlockReason(response: Record<string, unknown>): string | null {
  const feedback = isJsonObject(response.promptFeedback) ? response.promptFeedback : {};
  return typeof feedback.blockReason === "string" && feedback.blockReason !== "" ? feedback.blockReason : null;
}

/**
 * Converts a Gemini `GenerateContentResponse` into a chat completion: one choice per candidate
 * (its `index`), `text` parts joined as the content (thought parts as `reasoning_content`),
 * `functionCall` parts as `tool_calls` (arguments as JSON text, ids generated when Gemini gives
 * none), `finishReason` mapped (see `mapGeminiFinishReason`; a filtered candidate without text
 * carries a refusal), `logprobsResult` as `logprobs.content`; a prompt Gemini blocked
 * (`promptFeedback.blockReason`, no candidates) is one choice with a refusal and
 * `finish_reason: content_filter`. Usage from `usageMetadata` (see `normalizeGeminiUsage`).
 */
export function convertGeminiResponseToChat(response: Record<string, unknown>, options: { model: string }): ChatCompletion {
  const candidates = Array.isArray(response.candidates) ? response.candidates.filter(isJsonObject) : [];
  const choices: ChatCompletionChoice[] = candidates.map((candidate, position) => convertCandidate(candidate, position));
  const blocked = promptBlockReason(response);
  if (choices.length === 0) {
    const refusal = geminiBlockRefusal(blocked ?? "no candidates");
    choices.push({ index: 0, message: { role: "assistant", content: null, refusal }, finish_reason: "content_filter" });
  }
  return {
    id: typeof response.responseId === "string" ? `chatcmpl-${response.responseId}` : `chatcmpl-${randomUUID()}`,
    object: "chat.completion",
    created: Math.floor(Date.now() / 1000),
    model: typeof response.modelVersion === "string" ? response.modelVersion : options.model,
    choices,
    usage: renderChatUsage(normalizeGeminiUsage(response.usageMetadata)) as ChatCompletion["usage"],
  };
}

function convertCandidate(candidate: Record<string, unknown>, position: number): ChatCompletionChoice {
  let text = "";
  let thoughts = "";
  const toolCalls: ChatToolCall[] = [];
  for (const part of candidateParts(candidate)) {
    if (typeof part.text === "string") {
      if (part.thought === true) thoughts += part.text;
      else text += part.text;
    } else if (isJsonObject(part.functionCall)) {
      const call = part.functionCall;
      toolCalls.push({
        id: geminiToolCallId(call.id),
        type: "function",
        function: { name: typeof call.name === "string" ? call.name : "", arguments: JSON.stringify(isJsonObject(call.args) ? call.args : {}) },
      });
    }
  }
  const raw = typeof candidate.finishReason === "string" ? candidate.finishReason : null;
  const finishReason = mapGeminiFinishReason(raw, toolCalls.length > 0);
  const message: ChatCompletionChoice["message"] = { role: "assistant", content: text === "" && toolCalls.length > 0 ? null : text };
  if (finishReason === "content_filter" && text === "") {
    message.content = null;
    message.refusal = geminiBlockRefusal(raw ?? "SAFETY");
  }
  if (toolCalls.length > 0) message.tool_calls = toolCalls;
  if (thoughts !== "") message.reasoning_content = thoughts;
  const choice: ChatCompletionChoice = { index: typeof candidate.index === "number" ? candidate.index : position, message, finish_reason: finishReason };
  if (isJsonObject(candidate.logprobsResult)) choice.logprobs = { content: convertGeminiLogprobs(candidate.logprobsResult) };
  return choice;
}

/**
 * Gemini's `logprobsResult` as chat completion token log-probabilities: one entry per
 * `chosenCandidates` step, with that step's `topCandidates` as `top_logprobs`.
 */
export function convertGeminiLogprobs(result: Record<string, unknown>): ChatTokenLogprob[] {
  const chosen = Array.isArray(result.chosenCandidates) ? result.chosenCandidates.filter(isJsonObject) : [];
  const top = Array.isArray(result.topCandidates) ? result.topCandidates.filter(isJsonObject) : [];
  return chosen.map((candidate, step) => {
    const alternatives = top[step] !== undefined && Array.isArray(top[step].candidates) ? top[step].candidates.filter(isJsonObject) : [];
    return {
      token: typeof candidate.token === "string" ? candidate.token : "",
      logprob: typeof candidate.logProbability === "number" ? candidate.logProbability : 0,
      top_logprobs: alternatives.map((alternative) => ({
        token: typeof alternative.token === "string" ? alternative.token : "",
        logprob: typeof alternative.logProbability === "number" ? alternative.logProbability : 0,
      })),
    };
  });
}

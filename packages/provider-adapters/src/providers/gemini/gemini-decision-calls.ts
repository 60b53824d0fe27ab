import type { JsonObject } from "@gateway/contracts";
import type { AskOutcome, DecisionAsker } from "../../decision/decision-asker.js";
import type { DecisionPrompt } from "../../decision/decision-prompt.js";
import { mergeLabelLogprobs } from "../../decision/merge-label-logprobs.js";
import { parseStatedProbabilities, probabilitiesJsonSchema } from "../../decision/stated-probabilities.js";
import type { HttpTransport } from "../../http-transport.js";
import type { AdapterConnection, ProviderCallContext } from "../../provider-adapter.js";
import { malformedAnswer } from "../../upstream-call.js";
import { candidateParts, convertGeminiLogprobs, promptBlockReason } from "./convert-gemini-response-to-chat.js";
import { postGeminiJson } from "./gemini-call.js";
import type { GeminiEndpoint } from "./gemini-endpoint.js";
import { normalizeGeminiUsage } from "./gemini-usage.js";
import { mapGeminiFinishReason } from "./map-gemini-finish-reason.js";

/** Where a decision asker calls Gemini. */
export interface GeminiDecisionCall {
  transport: HttpTransport;
  connection: AdapterConnection;
  endpoint: GeminiEndpoint;
  model: string;
}

/**
 * The thinking a one-token answer allows: none, except on models that cannot turn it off
 * (gemini-2.5-pro thinks at least 128 tokens, which count against `maxOutputTokens`).
 */
function labelBudget(model: string): JsonObject {
  if (/gemini-2\.5-pro/i.test(model)) return { maxOutputTokens: 256, thinkingConfig: { thinkingBudget: 128 } };
  return { maxOutputTokens: 1, thinkingConfig: { thinkingBudget: 0 } };
}

function promptBody(prompt: DecisionPrompt, generationConfig: JsonObject): JsonObject {
  return {
    systemInstruction: { parts: [{ text: prompt.system }] },
    contents: [{ role: "user", parts: [{ text: prompt.user }] }],
    generationConfig,
  };
}

/** The first candidate, or null when the prompt or the candidate was blocked (a refusal). */
function answeredCandidate(body: Record<string, unknown>, provider: string): Record<string, unknown> | null {
  if (promptBlockReason(body) !== null) return null;
  const candidate = Array.isArray(body.candidates) ? (body.candidates[0] as unknown) : undefined;
  if (typeof candidate !== "object" || candidate === null) throw malformedAnswer(provider, "has no candidates");
  const record = candidate as Record<string, unknown>;
  const raw = typeof record.finishReason === "string" ? record.finishReason : null;
  return mapGeminiFinishReason(raw, false) === "content_filter" ? null : record;
}

/**
 * Label asker over `generateContent`: temperature 0, one output token (no thinking where the
 * model allows), `responseLogprobs: true` with the 20 most likely tokens (`logprobs: 20`);
 * weights from the first step of `logprobsResult.topCandidates` (variants merged). A blocked
 * prompt or a filtered candidate is a refusal.
 */
export function createGeminiLabelAsker(call: GeminiDecisionCall): DecisionAsker {
  return {
    source: "logprobs",
    async askLabel(prompt, labels, context: ProviderCallContext): Promise<AskOutcome> {
      const body = promptBody(prompt, { temperature: 0, candidateCount: 1, responseLogprobs: true, logprobs: 20, ...labelBudget(call.model) });
      const response = await postGeminiJson({ ...call, method: "generateContent", body, context });
      const usage = normalizeGeminiUsage(response.body.usageMetadata);
      const candidate = answeredCandidate(response.body, call.connection.name);
      if (candidate === null) return { kind: "refusal", usage };
      const steps = typeof candidate.logprobsResult === "object" && candidate.logprobsResult !== null ? convertGeminiLogprobs(candidate.logprobsResult as Record<string, unknown>) : [];
      const first = steps[0];
      if (first === undefined) throw malformedAnswer(call.connection.name, "has no token log-probabilities (the model may not support logprobs)");
      const candidates = first.top_logprobs !== undefined && first.top_logprobs.length > 0 ? first.top_logprobs : [first];
      return { kind: "weights", weights: mergeLabelLogprobs(candidates, labels), usage };
    },
  };
}

/**
 * Stated-probability asker over `generateContent` with `responseMimeType: application/json` and
 * a `responseJsonSchema` of one number field per label, temperature 0.
 */
export function createGeminiStatedAsker(call: GeminiDecisionCall): DecisionAsker {
  return {
    source: "stated",
    async askProbabilities(prompt, fields, context): Promise<AskOutcome> {
      const body = promptBody(prompt, { temperature: 0, candidateCount: 1, responseMimeType: "application/json", responseJsonSchema: probabilitiesJsonSchema(fields) });
      const response = await postGeminiJson({ ...call, method: "generateContent", body, context });
      const usage = normalizeGeminiUsage(response.body.usageMetadata);
      const candidate = answeredCandidate(response.body, call.connection.name);
      if (candidate === null) return { kind: "refusal", usage };
      const text = candidateParts(candidate).filter((part) => typeof part.text === "string" && part.thought !== true).map((part) => String(part.text)).join("");
      let parsed: unknown;
      try {
        parsed = JSON.parse(text);
      } catch {
        throw malformedAnswer(call.connection.name, "is not the requested JSON object");
      }
      return { kind: "weights", weights: parseStatedProbabilities(parsed, fields, call.connection.name), usage };
    },
  };
}

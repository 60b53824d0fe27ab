import { noTexts } from "../format-texts.js";
import { isJsonObject } from "../request-guards.js";
import { type TextSegment, collectStrings } from "../text-segments.js";
import { normalizeDecisionUsage, renderDecisionUsage } from "./decision-usage.js";

/** A decision request's texts: every string value of the body except the top-level `model` (the `state` and the `questions`). */
function decisionRequestTexts(body: unknown): TextSegment[] {
  const segments: TextSegment[] = [];
  if (!isJsonObject(body)) return segments;
  for (const [key, value] of Object.entries(body)) {
    if (key !== "model") collectStrings(value, [key], segments, 0);
  }
  return segments;
}

/** The decision contract (`POST /v1/decisions`): its answers are choices and probabilities, no free text. */
export const decisionsFormat = {
  requestFormat: "decision",
  requestTexts: decisionRequestTexts,
  answerTexts: noTexts,
  normalizeUsage: normalizeDecisionUsage,
  renderUsage: renderDecisionUsage,
} as const;

import { noTexts } from "../format-texts.js";
import { isJsonObject } from "../request-guards.js";
import type { TextSegment } from "../text-segments.js";

/** An embeddings request's texts: `input` (a string or an array of strings; token arrays are not text). */
function embeddingsRequestTexts(body: unknown): TextSegment[] {
  const segments: TextSegment[] = [];
  if (!isJsonObject(body)) return segments;
  if (typeof body.input === "string") segments.push({ path: ["input"], text: body.input });
  else if (Array.isArray(body.input)) {
    body.input.forEach((entry: unknown, index) => {
      if (typeof entry === "string") segments.push({ path: ["input", index], text: entry });
    });
  }
  return segments;
}

/** The OpenAI embeddings format (`POST /v1/embeddings`): its answers are vectors, no texts. */
export const embeddingsFormat = {
  requestFormat: "openai_embeddings",
  requestTexts: embeddingsRequestTexts,
  answerTexts: noTexts,
} as const;

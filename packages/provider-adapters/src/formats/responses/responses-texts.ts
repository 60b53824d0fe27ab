import { isJsonObject } from "../request-guards.js";
import type { TextSegment } from "../text-segments.js";

/**
 * A Responses request's texts: `instructions`, `input` (a string, or items: message `content` as
 * a string or the `text` of its parts, `function_call.arguments`, `function_call_output.output`
 * as a string or the `text` of its parts).
 */
export function responsesRequestTexts(body: unknown): TextSegment[] {
  const segments: TextSegment[] = [];
  if (!isJsonObject(body)) return segments;
  if (typeof body.instructions === "string") segments.push({ path: ["instructions"], text: body.instructions });
  if (typeof body.input === "string") segments.push({ path: ["input"], text: body.input });
  else if (Array.isArray(body.input)) {
    body.input.forEach((item: unknown, index) => {
      if (!isJsonObject(item)) return;
      const base = ["input", index];
      if (item.type === "function_call") {
        if (typeof item.arguments === "string") segments.push({ path: [...base, "arguments"], text: item.arguments });
      } else if (item.type === "function_call_output") {
        collectResponsesContent(item.output, [...base, "output"], segments);
      } else if (item.type === "message" || (item.type === undefined && item.role !== undefined)) {
        collectResponsesContent(item.content, [...base, "content"], segments);
      }
    });
  }
  return segments;
}

/** A Responses content value: a string, or parts whose `text` is read (`input_text`, `output_text`). */
function collectResponsesContent(content: unknown, path: (string | number)[], segments: TextSegment[]): void {
  if (typeof content === "string") {
    segments.push({ path, text: content });
    return;
  }
  if (!Array.isArray(content)) return;
  content.forEach((part, partIndex) => {
    if (isJsonObject(part) && typeof part.text === "string" && (part.type === "input_text" || part.type === "output_text")) {
      segments.push({ path: [...path, partIndex, "text"], text: part.text });
    }
  });
}

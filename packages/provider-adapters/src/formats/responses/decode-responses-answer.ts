import { AnswerBuilder, type DecodedAnswer } from "../decoded-answer.js";
import { isJsonObject } from "../request-guards.js";
import { mapResponsesFinishReason } from "./map-responses-finish-reason.js";
import { normalizeResponsesUsage } from "./responses-usage.js";

/**
 * A response object read into parts (`choice` 0, `block` = the output item's index): `start`;
 * per `message` item `text-delta` for its `output_text` parts and `refusal` parts (marked), other
 * parts named as opaque items; per `function_call` item `tool-call-start` (`id` its `call_id`) /
 * `-delta` / `-end`; per `reasoning` item a `reasoning-delta` per summary text; other items
 * (built-in tools) named as opaque items; `usage`; `finish` (`raw`: why it is incomplete, else
 * its status) and `end` once it is no longer in progress.
 */
export function decodeResponsesAnswer(body: unknown): DecodedAnswer {
  const answer = new AnswerBuilder();
  if (!isJsonObject(body)) return answer.build(0);
  answer.push({ type: "start", id: typeof body.id === "string" ? body.id : null, model: typeof body.model === "string" ? body.model : null });
  let toolIndex = 0;
  const output = Array.isArray(body.output) ? body.output : [];
  output.forEach((item: unknown, itemIndex) => {
    if (!isJsonObject(item)) return;
    if (item.type === "message") {
      if (!Array.isArray(item.content)) return;
      item.content.forEach((part: unknown, partIndex) => {
        if (isJsonObject(part) && part.type === "output_text" && typeof part.text === "string") {
          answer.push({ type: "text-delta", choice: 0, block: itemIndex, text: part.text }, { path: ["output", itemIndex, "content", partIndex, "text"] });
        } else answer.skip(0, isJsonObject(part) ? part.type : undefined);
      });
    } else if (item.type === "function_call") {
      answer.push({ type: "tool-call-start", choice: 0, block: itemIndex, toolIndex, id: typeof item.call_id === "string" ? item.call_id : "", name: typeof item.name === "string" ? item.name : "" });
      if (typeof item.arguments === "string") {
        answer.push({ type: "tool-call-delta", choice: 0, toolIndex, argumentsDelta: item.arguments }, { path: ["output", itemIndex, "arguments"], rewritable: false, value: item.arguments });
      }
      answer.push({ type: "tool-call-end", choice: 0, toolIndex });
      toolIndex += 1;
    } else if (item.type === "reasoning" && Array.isArray(item.summary)) {
      for (const summary of item.summary) if (isJsonObject(summary) && typeof summary.text === "string") answer.push({ type: "reasoning-delta", choice: 0, block: itemIndex, text: summary.text });
    } else answer.skip(0, item.type);
  });
  if (isJsonObject(body.usage)) answer.push({ type: "usage", usage: normalizeResponsesUsage(body.usage) });
  const incomplete = isJsonObject(body.incomplete_details) && typeof body.incomplete_details.reason === "string" ? body.incomplete_details.reason : null;
  const raw = incomplete ?? (typeof body.status === "string" ? body.status : null);
  if (raw !== null) answer.push({ type: "finish", choice: 0, reason: mapResponsesFinishReason(body, toolIndex), raw });
  if (body.status !== "in_progress" && body.status !== "queued") answer.push({ type: "end" });
  return answer.build(Array.isArray(body.output) ? 1 : 0);
}

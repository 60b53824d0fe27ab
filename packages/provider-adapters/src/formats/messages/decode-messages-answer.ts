import { AnswerBuilder, type DecodedAnswer } from "../decoded-answer.js";
import { isJsonObject } from "../request-guards.js";
import { mapAnthropicStopReason } from "./map-anthropic-stop-reason.js";
import { normalizeMessagesUsage } from "./messages-usage.js";

/**
 * A message answer read into parts (`choice` 0, `block` = the content block's index): `start`;
 * `text-delta` per `text` block, `reasoning-delta` per `thinking` block, `tool-call-start` /
 * `-delta` (its `input` as JSON) / `-end` per `tool_use` block, other blocks named as opaque
 * items; `finish` when it has a `stop_reason`, `usage`, `end`.
 */
export function decodeMessagesAnswer(body: unknown): DecodedAnswer {
  const answer = new AnswerBuilder();
  if (!isJsonObject(body)) return answer.build(0);
  answer.push({ type: "start", id: typeof body.id === "string" ? body.id : null, model: typeof body.model === "string" ? body.model : null });
  let toolIndex = 0;
  const content = Array.isArray(body.content) ? body.content : [];
  content.forEach((block: unknown, index) => {
    if (!isJsonObject(block)) return answer.skip(0, undefined);
    if (block.type === "text" && typeof block.text === "string") {
      answer.push({ type: "text-delta", choice: 0, block: index, text: block.text }, { path: ["content", index, "text"] });
    } else if (block.type === "thinking" && typeof block.thinking === "string") {
      answer.push({ type: "reasoning-delta", choice: 0, block: index, text: block.thinking });
    } else if (block.type === "tool_use") {
      answer.push({ type: "tool-call-start", choice: 0, block: index, toolIndex, id: typeof block.id === "string" ? block.id : "", name: typeof block.name === "string" ? block.name : "" });
      answer.push({ type: "tool-call-delta", choice: 0, toolIndex, argumentsDelta: JSON.stringify(block.input ?? {}) }, { path: ["content", index, "input"], rewritable: false, value: block.input });
      answer.push({ type: "tool-call-end", choice: 0, toolIndex });
      toolIndex += 1;
    } else answer.skip(0, block.type);
  });
  if (typeof body.stop_reason === "string") answer.push({ type: "finish", choice: 0, reason: mapAnthropicStopReason(body.stop_reason), raw: body.stop_reason });
  if (isJsonObject(body.usage)) answer.push({ type: "usage", usage: normalizeMessagesUsage(body.usage) });
  answer.push({ type: "end" });
  return answer.build(Array.isArray(body.content) ? 1 : 0);
}

import { AnswerBuilder, type DecodedAnswer } from "../decoded-answer.js";
import { isJsonObject } from "../request-guards.js";
import { readChatFinishReason } from "./read-chat-finish-reason.js";
import { normalizeChatUsage } from "./chat-usage.js";

/**
 * A chat completion read into parts: `start`; per choice (its position among the choices),
 * `reasoning-delta` for the `reasoning_content` / `reasoning` extension, `text-delta` for its
 * `content` (a string, or the `text` of its text parts; other parts are named as opaque items)
 * and `refusal` (marked), `tool-call-start` / `-delta` / `-end` for each of its `tool_calls`, and
 * `finish` when it has a `finish_reason`; then `usage` and `end`. Texts and arguments keep where
 * they sit in the answer.
 */
export function decodeChatAnswer(body: unknown): DecodedAnswer {
  const answer = new AnswerBuilder();
  if (!isJsonObject(body)) return answer.build(0);
  answer.push({ type: "start", id: typeof body.id === "string" ? body.id : null, model: typeof body.model === "string" ? body.model : null });
  const choices = Array.isArray(body.choices) ? body.choices : [];
  let choiceCount = 0;
  choices.forEach((rawChoice: unknown, position) => {
    if (!isJsonObject(rawChoice)) return;
    const choice = choiceCount++;
    const base = ["choices", position, "message"];
    const message = isJsonObject(rawChoice.message) ? rawChoice.message : {};
    const reasoning = message.reasoning_content ?? message.reasoning;
    if (typeof reasoning === "string" && reasoning !== "") answer.push({ type: "reasoning-delta", choice, text: reasoning });
    if (typeof message.content === "string") answer.push({ type: "text-delta", choice, text: message.content }, { path: [...base, "content"] });
    else if (Array.isArray(message.content)) {
      message.content.forEach((item: unknown, index) => {
        if (isJsonObject(item) && item.type === "text" && typeof item.text === "string") answer.push({ type: "text-delta", choice, text: item.text }, { path: [...base, "content", index, "text"] });
        else answer.skip(choice, isJsonObject(item) ? item.type : undefined);
      });
    }
    if (typeof message.refusal === "string" && message.refusal !== "") answer.push({ type: "text-delta", choice, text: message.refusal, refusal: true }, { path: [...base, "refusal"] });
    if (Array.isArray(message.tool_calls)) {
      let toolIndex = 0;
      message.tool_calls.forEach((call: unknown, callIndex) => {
        if (!isJsonObject(call)) return;
        const fn = isJsonObject(call.function) ? call.function : {};
        answer.push({ type: "tool-call-start", choice, toolIndex, id: typeof call.id === "string" ? call.id : "", name: typeof fn.name === "string" ? fn.name : "" });
        if (typeof fn.arguments === "string") {
          answer.push({ type: "tool-call-delta", choice, toolIndex, argumentsDelta: fn.arguments }, { path: [...base, "tool_calls", callIndex, "function", "arguments"], rewritable: false, value: fn.arguments });
        }
        answer.push({ type: "tool-call-end", choice, toolIndex });
        toolIndex += 1;
      });
    }
    if (typeof rawChoice.finish_reason === "string") {
      const raw = rawChoice.finish_reason;
      answer.push({ type: "finish", choice, reason: readChatFinishReason(raw), raw });
    }
  });
  if (isJsonObject(body.usage)) answer.push({ type: "usage", usage: normalizeChatUsage(body.usage) });
  answer.push({ type: "end" });
  return answer.build(choiceCount);
}

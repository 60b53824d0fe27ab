import { type ConversationMessage, chatCompletionsFormat, messagesFormat, responsesFormat } from "@gateway/provider-adapters";

/**
 * `gen_ai.input.messages` (a JSON string) from a captured request, read by its format module: for
 * the `responses` endpoint a Responses request (`instructions`, and `input` as text or items),
 * else a chat request in the OpenAI or Anthropic format (`messages`, and Anthropic's `system`);
 * null when the request has no messages (an embeddings input is never read as a prompt).
 */
export function toGenAiInputMessages(request: unknown, endpoint?: string): string | null {
  const messages = endpoint === "responses" ? responsesFormat.requestMessages(request) : chatCompletionsFormat.requestMessages(request);
  return messages === null ? null : JSON.stringify(messages);
}

/**
 * `gen_ai.output.messages` (a JSON string) from a captured answer, read by the format module of
 * its shape: a Responses response (`output` items), an OpenAI chat completion (`choices`), an
 * Anthropic message (`content`), or a stream's text; null for other shapes.
 */
export function toGenAiOutputMessages(response: unknown): string | null {
  if (typeof response !== "object" || response === null || Array.isArray(response)) return null;
  const answer = response as Record<string, unknown>;
  let messages: ConversationMessage[] | null = null;
  if (Array.isArray(answer.output)) messages = responsesFormat.answerMessages(answer);
  else if (Array.isArray(answer.choices)) messages = chatCompletionsFormat.answerMessages(answer);
  else if (Array.isArray(answer.content)) messages = messagesFormat.answerMessages(answer);
  else if (typeof answer.text === "string") messages = [{ role: "assistant", parts: [{ type: "text", content: answer.text }] }];
  return messages === null ? null : JSON.stringify(messages);
}

/** One message part in the GenAI semantic conventions' message schema. */
type GenAiPart =
  | { type: "text"; content: string }
  | { type: "tool_call"; id?: string; name?: string; arguments?: unknown }
  | { type: string };

type GenAiMessage = { role: string; parts: GenAiPart[]; finish_reason?: string };

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value);

/** Text and tool calls of an OpenAI or Anthropic message content; other parts (images, files) are named, never copied. */
function partsOf(content: unknown): GenAiPart[] {
  if (typeof content === "string") return [{ type: "text", content }];
  if (!Array.isArray(content)) return [];
  return content.map((item): GenAiPart => {
    if (!isRecord(item)) return { type: "unknown" };
    if ((item.type === "text" || item.type === "input_text" || item.type === "output_text") && typeof item.text === "string") return { type: "text", content: item.text };
    if (item.type === "tool_use") return { type: "tool_call", ...(typeof item.id === "string" ? { id: item.id } : {}), ...(typeof item.name === "string" ? { name: item.name } : {}), arguments: item.input };
    return { type: typeof item.type === "string" ? item.type : "unknown" };
  });
}

function toolCallsOf(message: Record<string, unknown>): GenAiPart[] {
  if (!Array.isArray(message.tool_calls)) return [];
  return message.tool_calls.filter(isRecord).map((call) => {
    const fn = isRecord(call.function) ? call.function : {};
    return { type: "tool_call", ...(typeof call.id === "string" ? { id: call.id } : {}), ...(typeof fn.name === "string" ? { name: fn.name } : {}), arguments: fn.arguments };
  });
}

/**
 * `gen_ai.input.messages` (a JSON string) from a captured chat request in the OpenAI or Anthropic
 * format (`messages`, and Anthropic's `system`); null when the request has no messages.
 */
export function toGenAiInputMessages(request: unknown): string | null {
  if (!isRecord(request) || !Array.isArray(request.messages)) return null;
  const messages: GenAiMessage[] = [];
  if (request.system !== undefined) messages.push({ role: "system", parts: partsOf(request.system) });
  for (const message of request.messages) {
    if (!isRecord(message)) continue;
    messages.push({ role: typeof message.role === "string" ? message.role : "user", parts: [...partsOf(message.content), ...toolCallsOf(message)] });
  }
  return JSON.stringify(messages);
}

/**
 * `gen_ai.output.messages` (a JSON string) from a captured answer: an OpenAI chat completion
 * (`choices`), an Anthropic message (`content`), or a stream's text; null for other shapes.
 */
export function toGenAiOutputMessages(response: unknown): string | null {
  if (!isRecord(response)) return null;
  let messages: GenAiMessage[] | null = null;
  if (Array.isArray(response.choices)) {
    messages = response.choices.filter(isRecord).map((choice) => {
      const message = isRecord(choice.message) ? choice.message : {};
      return {
        role: typeof message.role === "string" ? message.role : "assistant",
        parts: [...partsOf(message.content), ...toolCallsOf(message)],
        ...(typeof choice.finish_reason === "string" ? { finish_reason: choice.finish_reason } : {}),
      };
    });
  } else if (Array.isArray(response.content)) {
    messages = [{ role: "assistant", parts: partsOf(response.content), ...(typeof response.stop_reason === "string" ? { finish_reason: response.stop_reason } : {}) }];
  } else if (typeof response.text === "string") {
    messages = [{ role: "assistant", parts: [{ type: "text", content: response.text }] }];
  }
  return messages === null ? null : JSON.stringify(messages);
}

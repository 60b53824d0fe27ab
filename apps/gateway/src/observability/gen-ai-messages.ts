/** One message part in the GenAI semantic conventions' message schema. */
type GenAiPart =
  | { type: "text"; content: string }
  | { type: "tool_call"; id?: string; name?: string; arguments?: unknown }
  | { type: "tool_call_response"; id?: string; response?: unknown }
  | { type: "reasoning"; content: string }
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
 * `gen_ai.input.messages` (a JSON string) from a captured request: a chat request in the OpenAI
 * or Anthropic format (`messages`, and Anthropic's `system`), or for the `responses` endpoint a
 * Responses request (`instructions`, and `input` as text or items); null when the request has no
 * messages.
 */
export function toGenAiInputMessages(request: unknown, endpoint?: string): string | null {
  if (endpoint === "responses") return isRecord(request) ? responsesInputMessages(request) : null;
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
 * (`choices`), an Anthropic message (`content`), a Responses response (`output` items), or a
 * stream's text; null for other shapes.
 */
export function toGenAiOutputMessages(response: unknown): string | null {
  if (!isRecord(response)) return null;
  let messages: GenAiMessage[] | null = null;
  if (Array.isArray(response.output)) {
    messages = [responsesOutputMessage(response, response.output)];
  } else if (Array.isArray(response.choices)) {
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

/** A Responses request's `instructions` (a system message) and `input`: a text (one user message) or items. */
function responsesInputMessages(request: Record<string, unknown>): string | null {
  const messages: GenAiMessage[] = [];
  if (typeof request.instructions === "string") messages.push({ role: "system", parts: [{ type: "text", content: request.instructions }] });
  if (typeof request.input === "string") messages.push({ role: "user", parts: [{ type: "text", content: request.input }] });
  else if (Array.isArray(request.input)) {
    for (const item of request.input) {
      if (!isRecord(item)) continue;
      const message = responsesItemMessage(item);
      if (message !== null) messages.push(message);
    }
  }
  return messages.length === 0 ? null : JSON.stringify(messages);
}

/**
 * One input item as a message: a message item (its role and content), a function call (the
 * assistant's tool call), a function call's output (the tool's answer); null for other items
 * (reasoning, references to stored items), which carry no conversation text of the caller's.
 */
function responsesItemMessage(item: Record<string, unknown>): GenAiMessage | null {
  if (item.type === "function_call") return { role: "assistant", parts: [responsesToolCall(item)] };
  if (item.type === "function_call_output") {
    return { role: "tool", parts: [{ type: "tool_call_response", ...(typeof item.call_id === "string" ? { id: item.call_id } : {}), response: item.output }] };
  }
  if ((item.type === undefined || item.type === "message") && typeof item.role === "string") return { role: item.role, parts: partsOf(item.content) };
  return null;
}

function responsesToolCall(item: Record<string, unknown>): GenAiPart {
  return { type: "tool_call", ...(typeof item.call_id === "string" ? { id: item.call_id } : {}), ...(typeof item.name === "string" ? { name: item.name } : {}), arguments: item.arguments };
}

/**
 * A Responses answer's output items as one assistant message: text of its message items, its
 * function calls, and its reasoning summaries; the finish reason is why it is incomplete
 * (`max_output_tokens`, `content_filter`) or else its status (`completed`, `failed`).
 */
function responsesOutputMessage(response: Record<string, unknown>, output: unknown[]): GenAiMessage {
  const parts: GenAiPart[] = [];
  for (const item of output) {
    if (!isRecord(item)) continue;
    if (item.type === "message") parts.push(...partsOf(item.content));
    else if (item.type === "function_call") parts.push(responsesToolCall(item));
    else if (item.type === "reasoning" && Array.isArray(item.summary)) {
      for (const summary of item.summary) if (isRecord(summary) && typeof summary.text === "string") parts.push({ type: "reasoning", content: summary.text });
    } else parts.push({ type: typeof item.type === "string" ? item.type : "unknown" });
  }
  const incomplete = isRecord(response.incomplete_details) && typeof response.incomplete_details.reason === "string" ? response.incomplete_details.reason : null;
  const finishReason = incomplete ?? (typeof response.status === "string" ? response.status : null);
  return { role: "assistant", parts, ...(finishReason === null ? {} : { finish_reason: finishReason }) };
}

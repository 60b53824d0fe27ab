// Claude on Vertex AI as the mock answers it: Anthropic messages (JSON or SSE), written from the request.

/** What the mock answers a Claude call with (a test may script it). */
export type AnthropicAnswer =
  | { kind: "message"; message: Record<string, unknown> }
  /** A stream cut after `cutAfter` events, or ending in an `error` event (`errorType`). */
  | { kind: "message"; message: Record<string, unknown>; cutAfter?: number; errorType?: string }
  | { kind: "error"; status: number; body: unknown };

/** The usage every mock message reports. */
export const vertexMockUsage = { input_tokens: 21, output_tokens: 9, cache_creation_input_tokens: 0, cache_read_input_tokens: 4 };

/**
 * The default answer: a `tool_use` of the forced tool (`tool_choice` `tool` or `any`) with input
 * made from its schema (each number property 1/n: equal stated probabilities), else a text.
 */
export function defaultAnthropicAnswer(model: string, body: Record<string, any>): AnthropicAnswer {
  const tools: Record<string, any>[] = Array.isArray(body.tools) ? body.tools : [];
  const choice = body.tool_choice as Record<string, any> | undefined;
  const forced = choice?.type === "tool" ? tools.find((tool) => tool.name === choice.name) : choice?.type === "any" ? tools[0] : undefined;
  const content = forced === undefined ? [{ type: "text", text: "Hello from Claude on Vertex." }] : [{ type: "tool_use", id: "toolu_vrtx_01", name: forced.name, input: inputFromSchema(forced.input_schema) }];
  return {
    kind: "message",
    message: {
      id: "msg_vrtx_01",
      type: "message",
      role: "assistant",
      model,
      content,
      stop_reason: forced === undefined ? "end_turn" : "tool_use",
      stop_sequence: null,
      usage: vertexMockUsage,
    },
  };
}

function inputFromSchema(schema: Record<string, any> | undefined): Record<string, unknown> {
  const properties = Object.entries((schema?.properties ?? {}) as Record<string, { type?: string }>);
  return Object.fromEntries(properties.map(([name, property]) => [name, property.type === "number" ? 1 / properties.length : "Paris"]));
}

/** The SSE events of a message, as Anthropic streams it. */
export function anthropicStreamEvents(message: Record<string, any>): [string, Record<string, unknown>][] {
  const content: Record<string, any>[] = message.content ?? [];
  const events: [string, Record<string, unknown>][] = [
    ["message_start", { type: "message_start", message: { ...message, content: [], stop_reason: null, usage: { ...message.usage, output_tokens: 1 } } }],
  ];
  content.forEach((block, index) => {
    if (block.type === "tool_use") {
      events.push(["content_block_start", { type: "content_block_start", index, content_block: { ...block, input: {} } }]);
      const json = JSON.stringify(block.input);
      const middle = Math.floor(json.length / 2);
      for (const part of [json.slice(0, middle), json.slice(middle)]) {
        events.push(["content_block_delta", { type: "content_block_delta", index, delta: { type: "input_json_delta", partial_json: part } }]);
      }
    } else {
      events.push(["content_block_start", { type: "content_block_start", index, content_block: { type: "text", text: "" } }]);
      for (const piece of String(block.text).split(/(?<= )/)) {
        events.push(["content_block_delta", { type: "content_block_delta", index, delta: { type: "text_delta", text: piece } }]);
      }
    }
    events.push(["content_block_stop", { type: "content_block_stop", index }]);
  });
  events.push(["message_delta", { type: "message_delta", delta: { stop_reason: message.stop_reason, stop_sequence: null }, usage: { output_tokens: message.usage?.output_tokens ?? 0 } }]);
  events.push(["message_stop", { type: "message_stop" }]);
  return events;
}

/** Anthropic's error body (what Claude on Vertex answers for a bad messages body). */
export function anthropicError(type: string, message: string): Record<string, unknown> {
  return { type: "error", error: { type, message } };
}

/** The reason a rawPredict messages body is invalid, or undefined. */
export function invalidMessagesBody(body: Record<string, any>): string | undefined {
  if ("model" in body) return "model: Extra inputs are not permitted";
  if (typeof body.anthropic_version !== "string" || body.anthropic_version === "") return "anthropic_version: Field required";
  if (typeof body.max_tokens !== "number") return "max_tokens: Field required";
  if (!Array.isArray(body.messages)) return "messages: Field required";
  return undefined;
}

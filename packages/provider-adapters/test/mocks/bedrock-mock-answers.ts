import { randomUUID } from "node:crypto";
import type { BedrockMockEvent, BedrockMockReply, BedrockMockRequest } from "./bedrock-mock.js";

/** The usage every default Converse answer reports. */
export const bedrockMockUsage = { inputTokens: 12, outputTokens: 7, totalTokens: 24, cacheReadInputTokens: 3, cacheWriteInputTokens: 2 };

/** The text of a default answer that calls no tool. */
export const bedrockMockText = "Hello from the Bedrock mock.";

type Block = { text: string } | { toolUse: { toolUseId: string; name: string; input: Record<string, unknown> } };

/**
 * The mock's answer when a test scripts none: Converse answers text, or calls a tool when one
 * is forced (`toolChoice` any / tool) or the last user text asks about the weather, or
 * summarises a tool result; ConverseStream the same as events; InvokeModel embeds with Titan's
 * or Cohere's body; CountTokens counts a quarter of the input's JSON length.
 */
export function bedrockMockDefaultAnswer(request: BedrockMockRequest): BedrockMockReply {
  const body = (request.body ?? {}) as Record<string, any>;
  if (request.operation === "invoke") return embeddingAnswer(request.modelId ?? "", body);
  if (request.operation === "count-tokens") return { json: { inputTokens: Math.ceil(JSON.stringify(body.input ?? {}).length / 4) } };
  const { blocks, stopReason } = converseContent(body);
  if (request.operation === "converse") {
    return { json: { output: { message: { role: "assistant", content: blocks } }, stopReason, usage: bedrockMockUsage, metrics: { latencyMs: 42 } } };
  }
  return { events: converseEvents(blocks, stopReason) };
}

/** A Converse answer's blocks as ConverseStream events (text in pieces, tool input in two deltas). */
export function converseEvents(blocks: Block[], stopReason: string, usage: Record<string, number> = bedrockMockUsage): BedrockMockEvent[] {
  const events: BedrockMockEvent[] = [{ event: "messageStart", payload: { role: "assistant" } }];
  blocks.forEach((block, contentBlockIndex) => {
    if ("text" in block) {
      for (const piece of block.text.match(/.{1,8}/gs) ?? [""]) events.push({ event: "contentBlockDelta", payload: { contentBlockIndex, delta: { text: piece } } });
    } else {
      const { toolUseId, name, input } = block.toolUse;
      events.push({ event: "contentBlockStart", payload: { contentBlockIndex, start: { toolUse: { toolUseId, name } } } });
      const json = JSON.stringify(input);
      const half = Math.floor(json.length / 2);
      events.push({ event: "contentBlockDelta", payload: { contentBlockIndex, delta: { toolUse: { input: json.slice(0, half) } } } });
      events.push({ event: "contentBlockDelta", payload: { contentBlockIndex, delta: { toolUse: { input: json.slice(half) } } } });
    }
    events.push({ event: "contentBlockStop", payload: { contentBlockIndex } });
  });
  events.push({ event: "messageStop", payload: { stopReason } });
  events.push({ event: "metadata", payload: { usage, metrics: { latencyMs: 42 } } });
  return events;
}

function converseContent(body: Record<string, any>): { blocks: Block[]; stopReason: string } {
  const tools: { toolSpec: { name: string; inputSchema: { json: Record<string, any> } } }[] = body.toolConfig?.tools ?? [];
  const choice = body.toolConfig?.toolChoice ?? {};
  const last = (body.messages ?? []).at(-1);
  const lastBlocks: Record<string, any>[] = Array.isArray(last?.content) ? last.content : [];
  if (lastBlocks.some((block) => block.toolResult !== undefined)) return { blocks: [{ text: "It is sunny in Paris." }], stopReason: "end_turn" };
  const lastText = lastBlocks.map((block) => block.text ?? "").join(" ");
  const forced = choice.tool?.name ?? (choice.any !== undefined || /weather/i.test(lastText) ? tools[0]?.toolSpec.name : undefined);
  const tool = tools.find((entry) => entry.toolSpec.name === forced);
  if (tool === undefined) return { blocks: [{ text: bedrockMockText }], stopReason: "end_turn" };
  const toolUseId = `tooluse_${randomUUID().replace(/-/g, "").slice(0, 22)}`;
  return { blocks: [{ toolUse: { toolUseId, name: tool.toolSpec.name, input: inputFor(tool.toolSpec.inputSchema.json) } }], stopReason: "tool_use" };
}

/** An input matching a schema's properties: numbers share 1 (the first gets most), strings say Paris. */
function inputFor(schema: Record<string, any>): Record<string, unknown> {
  const properties = Object.entries((schema.properties ?? {}) as Record<string, { type?: string }>);
  const numbers = properties.filter(([, property]) => property.type === "number");
  const input: Record<string, unknown> = {};
  for (const [name, property] of properties) {
    if (property.type === "number") input[name] = numbers.length === 1 ? 1 : name === numbers[0]![0] ? 0.7 : 0.3 / (numbers.length - 1);
    else if (property.type === "string") input[name] = "Paris";
    else if (property.type === "boolean") input[name] = true;
  }
  return input;
}

function embeddingAnswer(modelId: string, body: Record<string, any>): BedrockMockReply {
  const vector = (seed: number, size: number) => Array.from({ length: size }, (_, index) => Math.round(Math.sin(seed + index) * 1e6) / 1e6);
  const words = (text: string) => text.split(/\s+/).filter((word) => word !== "").length;
  if (modelId.startsWith("amazon.titan-embed")) {
    if (typeof body.inputText !== "string") return { json: { message: "Malformed input request: required key [inputText] not found" }, status: 400, errorType: "ValidationException" };
    const tokens = words(body.inputText);
    return { json: { embedding: vector(body.inputText.length, body.dimensions ?? 1024), inputTextTokenCount: tokens }, headers: { "x-amzn-bedrock-input-token-count": String(tokens) } };
  }
  if (modelId.startsWith("cohere.embed")) {
    const texts: string[] = body.texts ?? [];
    if (!Array.isArray(body.texts) || typeof body.input_type !== "string") return { json: { message: "Malformed input request: texts and input_type are required" }, status: 400, errorType: "ValidationException" };
    const tokens = texts.reduce((sum, text) => sum + words(text), 0);
    return { json: { id: randomUUID(), embeddings: texts.map((text) => vector(text.length, 1024)), response_type: "embeddings_floats", texts }, headers: { "x-amzn-bedrock-input-token-count": String(tokens) } };
  }
  return { json: { message: `The provided model identifier is invalid.` }, status: 400, errorType: "ValidationException" };
}

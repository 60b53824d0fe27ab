/** A text of a request body and where it sits, so a redaction can be written back. */
export interface TextSegment {
  path: (string | number)[];
  text: string;
}

/** The request formats the extractors understand. */
export type RequestFormat = "openai_chat" | "anthropic_messages" | "openai_responses" | "openai_embeddings" | "decision" | "mcp_call";

const maxDepth = 64;

/**
 * The texts a request sends to a model, with their paths:
 *
 * - `openai_chat`: `messages[i].content` (string, or `text` of its `text` parts), tool call
 *   `function.arguments`, and legacy `function_call.arguments`;
 * - `anthropic_messages`: `system` (string or text blocks), `messages[i].content` (string,
 *   `text` blocks, `tool_result` content, every string inside `tool_use.input`);
 * - `openai_responses`: `instructions`, `input` (a string, or items: message `content` as a
 *   string or the `text` of its parts, `function_call.arguments`, `function_call_output.output`
 *   as a string or the `text` of its parts);
 * - `openai_embeddings`: `input` (a string or an array of strings; token arrays are not text);
 * - `decision`: every string value of the body except the top-level `model` (the `state` and
 *   the `questions`);
 * - `mcp_call`: every string value inside `arguments` (an MCP tool call's or prompt's arguments).
 *
 * Object keys are never extracted. Anything not listed (images, ids, model names) is left alone.
 */
export function extractTextSegments(body: unknown, format: RequestFormat): TextSegment[] {
  const segments: TextSegment[] = [];
  if (!isRecord(body)) return segments;
  if (format === "mcp_call") {
    collectStrings(body.arguments, ["arguments"], segments, 0);
    return segments;
  }
  if (format === "decision") {
    for (const [key, value] of Object.entries(body)) {
      if (key !== "model") collectStrings(value, [key], segments, 0);
    }
    return segments;
  }
  if (format === "openai_embeddings") {
    if (typeof body.input === "string") segments.push({ path: ["input"], text: body.input });
    else if (Array.isArray(body.input)) {
      body.input.forEach((entry, index) => {
        if (typeof entry === "string") segments.push({ path: ["input", index], text: entry });
      });
    }
    return segments;
  }
  if (format === "openai_responses") {
    if (typeof body.instructions === "string") segments.push({ path: ["instructions"], text: body.instructions });
    if (typeof body.input === "string") segments.push({ path: ["input"], text: body.input });
    else if (Array.isArray(body.input)) {
      body.input.forEach((item, index) => {
        if (!isRecord(item)) return;
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
  if (format === "anthropic_messages") {
    collectContent(body.system, ["system"], segments);
  }
  const messages = body.messages;
  if (!Array.isArray(messages)) return segments;
  messages.forEach((message, messageIndex) => {
    if (!isRecord(message)) return;
    const base = ["messages", messageIndex];
    collectContent(message.content, [...base, "content"], segments);
    if (format === "openai_chat") {
      if (Array.isArray(message.tool_calls)) {
        message.tool_calls.forEach((call, callIndex) => {
          if (isRecord(call) && isRecord(call.function) && typeof call.function.arguments === "string") {
            segments.push({ path: [...base, "tool_calls", callIndex, "function", "arguments"], text: call.function.arguments });
          }
        });
      }
      if (isRecord(message.function_call) && typeof message.function_call.arguments === "string") {
        segments.push({ path: [...base, "function_call", "arguments"], text: message.function_call.arguments });
      }
    }
  });
  return segments;
}

/** A `content` value: a string, or an array of blocks / parts. */
function collectContent(content: unknown, path: (string | number)[], segments: TextSegment[]): void {
  if (typeof content === "string") {
    segments.push({ path, text: content });
    return;
  }
  if (!Array.isArray(content)) return;
  content.forEach((block, blockIndex) => {
    if (!isRecord(block)) return;
    const blockPath = [...path, blockIndex];
    if (block.type === "text" && typeof block.text === "string") {
      segments.push({ path: [...blockPath, "text"], text: block.text });
    } else if (block.type === "tool_result") {
      collectContent(block.content, [...blockPath, "content"], segments);
    } else if (block.type === "tool_use") {
      collectStrings(block.input, [...blockPath, "input"], segments, 0);
    }
  });
}

/** A Responses content value: a string, or parts whose `text` is read (`input_text`, `output_text`). */
function collectResponsesContent(content: unknown, path: (string | number)[], segments: TextSegment[]): void {
  if (typeof content === "string") {
    segments.push({ path, text: content });
    return;
  }
  if (!Array.isArray(content)) return;
  content.forEach((part, partIndex) => {
    if (isRecord(part) && typeof part.text === "string" && (part.type === "input_text" || part.type === "output_text")) {
      segments.push({ path: [...path, partIndex, "text"], text: part.text });
    }
  });
}

function collectStrings(value: unknown, path: (string | number)[], segments: TextSegment[], depth: number): void {
  if (typeof value === "string") {
    segments.push({ path, text: value });
    return;
  }
  if (depth >= maxDepth) return;
  if (Array.isArray(value)) {
    value.forEach((item, index) => collectStrings(item, [...path, index], segments, depth + 1));
  } else if (isRecord(value)) {
    for (const [key, item] of Object.entries(value)) collectStrings(item, [...path, key], segments, depth + 1);
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * Returns a copy of `body` with the texts at `segments[i].path` replaced by `texts[i]`
 * (only where they differ). The input body is not modified.
 */
export function writeTextSegments<T>(body: T, segments: readonly TextSegment[], texts: readonly string[]): T {
  const copy = structuredClone(body);
  segments.forEach((segment, index) => {
    const text = texts[index];
    if (text === undefined || text === segment.text) return;
    let container: unknown = copy;
    for (const key of segment.path.slice(0, -1)) container = (container as Record<string | number, unknown>)[key];
    (container as Record<string | number, unknown>)[segment.path[segment.path.length - 1] as string | number] = text;
  });
  return copy;
}

import { isJsonObject } from "../request-guards.js";
import { type TextSegment, collectStrings } from "../text-segments.js";

/** An MCP call's texts: every string value inside `arguments` (a tool call's or prompt's arguments). */
function mcpCallTexts(body: unknown): TextSegment[] {
  const segments: TextSegment[] = [];
  if (isJsonObject(body)) collectStrings(body.arguments, ["arguments"], segments, 0);
  return segments;
}

/**
 * An MCP result's texts: of a tool result (`content[].text`, embedded resources' `text`, every
 * string of `structuredContent`), of a prompt (`messages[].content`) and of a resource read
 * (`contents[].text`). Binary content (`blob`, image and audio `data`) is left alone.
 */
function mcpResultTexts(body: unknown): TextSegment[] {
  const segments: TextSegment[] = [];
  if (!isJsonObject(body)) return segments;
  if (Array.isArray(body.content)) body.content.forEach((block: unknown, index) => collectBlock(block, ["content", index], segments));
  if (body.structuredContent !== undefined) collectStrings(body.structuredContent, ["structuredContent"], segments, 0);
  if (Array.isArray(body.messages)) {
    body.messages.forEach((message: unknown, index) => {
      if (isJsonObject(message)) collectBlock(message.content, ["messages", index, "content"], segments);
    });
  }
  if (Array.isArray(body.contents)) body.contents.forEach((contents: unknown, index) => collectResourceContents(contents, ["contents", index], segments));
  return segments;
}

function collectBlock(block: unknown, path: (string | number)[], segments: TextSegment[]): void {
  if (!isJsonObject(block)) return;
  if (block.type === "text" && typeof block.text === "string") segments.push({ path: [...path, "text"], text: block.text });
  else if (block.type === "resource") collectResourceContents(block.resource, [...path, "resource"], segments);
}

function collectResourceContents(contents: unknown, path: (string | number)[], segments: TextSegment[]): void {
  if (isJsonObject(contents) && typeof contents.text === "string") segments.push({ path: [...path, "text"], text: contents.text });
}

/** MCP through the gateway (`/v1/mcp/...`): the call's arguments in, the server's result out. */
export const mcpResultsFormat = {
  requestFormat: "mcp_call",
  requestTexts: mcpCallTexts,
  answerTexts: mcpResultTexts,
} as const;

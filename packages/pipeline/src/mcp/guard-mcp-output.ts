import type { CompiledGuardrails } from "@gateway/policy-engine";

/**
 * Output guardrails on an MCP result before it reaches the caller: the texts of a tool result
 * (`content[].text`, embedded resources' `text`, every string of `structuredContent`), of a
 * prompt (`messages[].content`) and of a resource read (`contents[].text`) are checked and may be
 * redacted. Binary content (`blob`, image and audio `data`) is left alone. Throws 403
 * `guardrail_blocked` for a blocking rule; returns the body (a redacted copy when a redact rule
 * matched) and the names of flagging rules.
 */
export function guardMcpOutput(input: { guardrails: CompiledGuardrails; body: unknown }): { body: unknown; flags: string[] } {
  const flags = new Set<string>();
  const check = (text: string): string => {
    const result = input.guardrails.checkOutput(text);
    if (result.blocked) throw result.blocked;
    for (const flag of result.flags) flags.add(flag);
    return result.value;
  };
  if (!isRecord(input.body)) return { body: input.body, flags: [] };
  const body: Record<string, unknown> = { ...input.body };
  if (Array.isArray(body.content)) body.content = body.content.map((block) => guardBlock(block, check));
  if (body.structuredContent !== undefined) body.structuredContent = guardStrings(body.structuredContent, check, 0);
  if (Array.isArray(body.messages)) {
    body.messages = body.messages.map((message) => (isRecord(message) ? { ...message, content: guardBlock(message.content, check) } : message));
  }
  if (Array.isArray(body.contents)) body.contents = body.contents.map((contents) => guardResourceContents(contents, check));
  return { body, flags: [...flags] };
}

function guardBlock(block: unknown, check: (text: string) => string): unknown {
  if (!isRecord(block)) return block;
  if (block.type === "text" && typeof block.text === "string") return { ...block, text: check(block.text) };
  if (block.type === "resource") return { ...block, resource: guardResourceContents(block.resource, check) };
  return block;
}

function guardResourceContents(contents: unknown, check: (text: string) => string): unknown {
  return isRecord(contents) && typeof contents.text === "string" ? { ...contents, text: check(contents.text) } : contents;
}

function guardStrings(value: unknown, check: (text: string) => string, depth: number): unknown {
  if (typeof value === "string") return check(value);
  if (depth >= 64) return value;
  if (Array.isArray(value)) return value.map((item) => guardStrings(item, check, depth + 1));
  if (isRecord(value)) return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, guardStrings(item, check, depth + 1)]));
  return value;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

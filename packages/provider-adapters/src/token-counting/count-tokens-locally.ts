import type { JsonObject } from "@gateway/contracts";
import { convertMessagesRequestToChat } from "../formats/messages/convert-messages-request-to-chat.js";
import type { LocalTokenizer } from "./local-token-encoder.js";
import { isJsonObject } from "../formats/request-guards.js";
import { countTextTokensOffThread } from "./token-counting-thread.js";

export type { LocalTokenizer } from "./local-token-encoder.js";

/** The answer of {@link countTokensLocally}. */
export interface LocalTokenCount {
  inputTokens: number;
  /**
   * True when the model is a known OpenAI family (its own tokenizer) and the request has only
   * messages of text, counted with OpenAI's documented per-message overhead. False when
   * anything is estimated: another model family, tool definitions, tool calls, images, or text
   * estimated from its length (runs of more than 24 characters without a space, or what is
   * left after the 250 ms encoding budget).
   */
  exact: boolean;
  tokenizer: LocalTokenizer;
}

// OpenAI's documented chat overhead: every message costs 3 tokens plus its role and content,
// a `name` 1 more, and every reply is primed with 3 tokens.
const tokensPerMessage = 3;
const tokensPerName = 1;
const tokensForReplyPriming = 3;
// An image of unknown size at "auto" detail, estimated as 1024x1024 at high detail (85 + 4 * 170).
const tokensPerImageEstimate = 765;
// Framing OpenAI adds around tool definitions (estimate).
const tokensForToolsFraming = 12;

/**
 * The tokenizer for a model (`<vendor>/<model>` or a bare upstream name) and whether it is the
 * model's own: o200k_base for gpt-4o, gpt-4.1, gpt-4.5, gpt-5 and o1/o3/o4 families;
 * cl100k_base for gpt-4 and gpt-3.5-turbo; anything else is estimated with o200k_base.
 */
export function selectLocalTokenizer(model: string): { tokenizer: LocalTokenizer; known: boolean } {
  const name = (model.split("/").at(-1) ?? model).toLowerCase();
  if (/^(?:chatgpt-4o|gpt-4o|gpt-4\.1|gpt-4\.5|gpt-5|o1|o3|o4)(?:[-.:]|$)/.test(name)) {
    return { tokenizer: "o200k_base", known: true };
  }
  if (/^(?:gpt-4|gpt-3\.5-turbo|gpt-35-turbo)(?:[-:]|$)/.test(name)) return { tokenizer: "cl100k_base", known: true };
  return { tokenizer: "o200k_base", known: false };
}

/**
 * Counts the input tokens of an Anthropic `count_tokens` body (`{model, messages, system?,
 * tools?, tool_choice?}`) for an OpenAI-compatible model, locally. The body is translated as the
 * messages route would translate it (so unsupported fields fail the same way), then counted with
 * the model family's tokenizer, on the token-counting thread (ranks load there on first use and
 * are cached): a large body or the first count never holds the caller's thread.
 */
export async function countTokensLocally(body: Record<string, unknown>, model: string): Promise<LocalTokenCount> {
  const { tokenizer, known } = selectLocalTokenizer(model);
  const chatRequest = convertMessagesRequestToChat({ ...body, max_tokens: 1 }, { model });
  // The texts to encode, collected first and counted in one message to the counting thread.
  const texts: string[] = [];

  let estimated = !known;
  let total = tokensForReplyPriming;
  for (const message of chatRequest.messages as JsonObject[]) {
    total += tokensPerMessage;
    texts.push(String(message.role));
    if (typeof message.name === "string") {
      total += tokensPerName;
      texts.push(message.name);
    }
    if (typeof message.content === "string") texts.push(message.content);
    else if (Array.isArray(message.content)) {
      for (const part of message.content) {
        if (!isJsonObject(part)) continue;
        if (part.type === "text" && typeof part.text === "string") texts.push(part.text);
        else if (part.type === "image_url") {
          total += tokensPerImageEstimate;
          estimated = true;
        }
      }
    }
    if (Array.isArray(message.tool_calls)) {
      estimated = true;
      for (const call of message.tool_calls) {
        if (!isJsonObject(call) || !isJsonObject(call.function)) continue;
        total += tokensPerMessage;
        texts.push(String(call.function.name), String(call.function.arguments));
      }
    }
  }
  if (Array.isArray(chatRequest.tools) && chatRequest.tools.length > 0) {
    estimated = true;
    total += tokensForToolsFraming;
    texts.push(renderToolsForCounting(chatRequest.tools as JsonObject[]));
  }
  const { counts, exact } = await countTextTokensOffThread(tokenizer, texts);
  for (const tokens of counts) total += tokens;
  return { inputTokens: total, exact: exact && !estimated, tokenizer };
}

/** Renders tool definitions roughly the way OpenAI presents them to the model (a TypeScript-like namespace). */
function renderToolsForCounting(tools: JsonObject[]): string {
  const lines = ["namespace functions {", ""];
  for (const tool of tools) {
    const definition = isJsonObject(tool.function) ? tool.function : {};
    if (typeof definition.description === "string") lines.push(`// ${definition.description}`);
    const parameters = isJsonObject(definition.parameters) ? definition.parameters : {};
    lines.push(`type ${String(definition.name)} = (_: ${renderSchema(parameters, "")}) => any;`, "");
  }
  lines.push("} // namespace functions");
  return lines.join("\n");
}

function renderSchema(schema: JsonObject, indent: string): string {
  if (Array.isArray(schema.enum)) return schema.enum.map((value) => JSON.stringify(value)).join(" | ");
  if (schema.type === "object" || isJsonObject(schema.properties)) {
    const properties = isJsonObject(schema.properties) ? schema.properties : {};
    const required = new Set(Array.isArray(schema.required) ? schema.required : []);
    const inner = `${indent}  `;
    const fields = Object.entries(properties).map(([name, value]) => {
      const property = isJsonObject(value) ? value : {};
      const comment = typeof property.description === "string" ? `${inner}// ${property.description}\n` : "";
      return `${comment}${inner}${name}${required.has(name) ? "" : "?"}: ${renderSchema(property, inner)},`;
    });
    return fields.length === 0 ? "{}" : `{\n${fields.join("\n")}\n${indent}}`;
  }
  if (schema.type === "array") return `${renderSchema(isJsonObject(schema.items) ? schema.items : {}, indent)}[]`;
  if (schema.type === "integer") return "number";
  if (typeof schema.type === "string") return schema.type;
  return "any";
}

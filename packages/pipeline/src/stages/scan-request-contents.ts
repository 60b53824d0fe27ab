import { type ImageSize, readImageSize } from "@gateway/budget";

/** One image part of a request: its size when the request carries the image's header, and OpenAI's `detail`. */
export interface RequestImage {
  size: ImageSize | null;
  detail: string | null;
}

/**
 * What a request holds that the provider bills beyond its characters, found by
 * {@link scanRequestContents}. Text counts one token per UTF-8 byte (every token of the providers'
 * byte-level tokenizers covers at least one byte, so no text, English, CJK or emoji, costs more);
 * media parts are counted by their own rules.
 */
export class RequestContents {
  /** UTF-8 bytes of every string (keys included) outside media payloads, plus one per number, boolean or null. */
  textTokens = 0;
  images: RequestImage[] = [];
  /** Tokens bounding the audio parts (see {@link audioBytesPerToken}). */
  audioTokens = 0;
  /** Tokens of the prompts providers add for tools and output schemas (see {@link toolPromptTokens}). */
  promptOverheadTokens = 0;
  /**
   * Output tokens billed besides the choices: OpenAI's predicted output (`prediction`), whose
   * rejected tokens are billed as completion tokens; at most one per UTF-8 byte of it.
   */
  predictionTokens = 0;
  /** Why the input cannot be bounded short of the model's context window (a file part, server-side state), else null. */
  unboundedInput: string | null = null;
  /** Why the call's cost has no bound at all (a tool the provider runs itself, billing more calls), else null. */
  unboundedCall: string | null = null;
}

/**
 * Decoded audio bytes per token of the audio bound: the audio's duration is at most its bytes /
 * 1,000 (8 kbit/s, the lowest MP3 bitrate; WAV PCM is at least 8,000 bytes a second), and 50 tokens
 * a second is above what providers bill for audio input (OpenAI's GPT-4o audio about 10 a second,
 * Gemini 32), so one token per 20 bytes.
 */
export const audioBytesPerToken = 20;

/**
 * Tokens added for tools and output schemas: the providers render the definitions (counted as
 * text already) into a prompt of their own (Anthropic documents 313-346 tokens of tool-use system
 * prompt on Claude 4 models), so 1,000 once when a request defines tools or an output schema, and
 * 1,000 more per provider-defined tool (Anthropic's computer use costs 735 tokens a definition plus
 * a 466-499 token system prompt, text editor 700, bash 245).
 */
export const toolPromptTokens = 1_000;

/** Fixed tokens a request adds to its texts (message framing, the reply's priming). */
const requestFramingTokens = 16;

/**
 * Tool types the provider runs itself within one call (web search, file search, code execution,
 * remote MCP, image generation): each run adds input and fees the request cannot bound.
 */
const serverToolPattern = /^(?:web_search|web_fetch|code_execution|code_interpreter|file_search|image_generation|mcp|tool_search)/;

const dataUrlPattern = /^data:[^,]{0,200};base64,/;

/**
 * One linear walk over a request body (chat completions, messages, Responses, embeddings):
 * counts the text's UTF-8 bytes (keys, system prompts, tool definitions and JSON schemas
 * included) and collects the parts billed by other rules, without descending into their payloads:
 * images (OpenAI `image_url` / `input_image`, Anthropic `image`; the size is read from a base64
 * image's header), audio (`input_audio`: bounded by its base64 size), files and documents (OpenAI
 * `file` / `input_file`, Anthropic `document` with a base64, URL or file source: only bounded by
 * the context window), and the tools the provider runs itself (refused under a hard budget).
 * Iterative (no recursion limit on deep bodies).
 */
export function scanRequestContents(body: Record<string, unknown>): RequestContents {
  const contents = new RequestContents();
  contents.textTokens = requestFramingTokens;
  scanTools(body, contents);
  const stack: unknown[] = [body];
  while (stack.length > 0) {
    const value = stack.pop();
    if (typeof value === "string") {
      contents.textTokens += Buffer.byteLength(value, "utf8");
    } else if (Array.isArray(value)) {
      for (let index = 0; index < value.length; index += 1) stack.push(value[index]);
    } else if (value !== null && typeof value === "object") {
      const object = value as Record<string, unknown>;
      if (typeof object.type === "string" && scanMediaPart(object, contents)) continue;
      for (const key of Object.keys(object)) {
        contents.textTokens += Buffer.byteLength(key, "utf8");
        stack.push(object[key]);
      }
    } else if (value !== undefined) {
      contents.textTokens += 1;
    }
  }
  return contents;
}

function scanTools(body: Record<string, unknown>, contents: RequestContents): void {
  if (Array.isArray(body.functions) && body.functions.length > 0) contents.promptOverheadTokens += toolPromptTokens;
  if (body.prediction !== undefined && body.prediction !== null) contents.predictionTokens = textBytesOf(body.prediction);
  // Responses: a stored conversation or prompt template adds input the request does not carry.
  if (body.conversation !== undefined && body.conversation !== null) contents.unboundedInput ??= "a stored 'conversation'";
  if (body.prompt !== null && typeof body.prompt === "object") contents.unboundedInput ??= "a stored 'prompt'";
  const tools = body.tools;
  if (Array.isArray(tools) && tools.length > 0) {
    contents.promptOverheadTokens += toolPromptTokens;
    for (const tool of tools) {
      const type = tool !== null && typeof tool === "object" ? (tool as { type?: unknown }).type : undefined;
      if (typeof type !== "string" || type === "function" || type === "custom") continue;
      if (serverToolPattern.test(type)) contents.unboundedCall ??= `tool '${type.slice(0, 64)}' runs at the provider`;
      contents.promptOverheadTokens += toolPromptTokens;
    }
  }
  const schema = body.response_format ?? body.output_format ?? (body.text as { format?: unknown } | null | undefined)?.format;
  if (schema !== undefined && schema !== null) contents.promptOverheadTokens += toolPromptTokens;
  if (Array.isArray(body.mcp_servers) && body.mcp_servers.length > 0) contents.unboundedCall ??= "'mcp_servers' run at the provider";
  if (body.web_search_options !== undefined && body.web_search_options !== null) contents.unboundedCall ??= "'web_search_options' runs a search at the provider";
}

/** UTF-8 bytes of the strings (keys included) in a value, plus one per other scalar; iterative. */
function textBytesOf(root: unknown): number {
  let total = 0;
  const stack: unknown[] = [root];
  while (stack.length > 0) {
    const value = stack.pop();
    if (typeof value === "string") total += Buffer.byteLength(value, "utf8");
    else if (Array.isArray(value)) for (let index = 0; index < value.length; index += 1) stack.push(value[index]);
    else if (value !== null && typeof value === "object") {
      for (const key of Object.keys(value)) {
        total += Buffer.byteLength(key, "utf8");
        stack.push((value as Record<string, unknown>)[key]);
      }
    } else if (value !== undefined) total += 1;
  }
  return total;
}

/** Counts a media part (true) or leaves the object to the text walk (false: not a media part, or a text document). */
function scanMediaPart(part: Record<string, unknown>, contents: RequestContents): boolean {
  switch (part.type) {
    case "image_url": {
      // Chat completions: { type: "image_url", image_url: { url, detail } } (or a bare URL string).
      const image = part.image_url;
      if (typeof image === "string") return addImage(contents, image, null);
      if (image === null || typeof image !== "object") return false;
      const { url, detail } = image as { url?: unknown; detail?: unknown };
      if (typeof url !== "string") return false;
      return addImage(contents, url, typeof detail === "string" ? detail : null);
    }
    case "input_image": {
      // Responses: { type: "input_image", image_url | file_id, detail }.
      const detail = typeof part.detail === "string" ? part.detail : null;
      if (typeof part.image_url === "string") return addImage(contents, part.image_url, detail);
      if (typeof part.file_id === "string") return addImage(contents, "", detail);
      return false;
    }
    case "image": {
      // Messages: { type: "image", source: { type: "base64", data } | { type: "url", url } | { type: "file", file_id } }.
      const source = part.source as { type?: unknown; data?: unknown } | null | undefined;
      if (source === null || typeof source !== "object") return false;
      if (source.type === "base64" && typeof source.data === "string") {
        contents.images.push({ size: readImageSize(source.data), detail: null });
        contents.textTokens += requestFramingTokens;
        return true;
      }
      return addImage(contents, "", null);
    }
    case "input_audio": {
      // Chat completions: { type: "input_audio", input_audio: { data, format } }; Responses: { type: "input_audio", data, format }.
      const audio = (part.input_audio ?? part) as { data?: unknown };
      if (audio === null || typeof audio !== "object" || typeof audio.data !== "string") return false;
      contents.audioTokens += Math.ceil((audio.data.length * 3) / 4 / audioBytesPerToken);
      contents.textTokens += requestFramingTokens;
      return true;
    }
    case "file":
      // Chat completions: { type: "file", file: { file_data | file_id, filename } }.
      if (part.file === null || typeof part.file !== "object") return false;
      contents.unboundedInput ??= "a 'file' part";
      return true;
    case "input_file":
      // Responses: { type: "input_file", file_data | file_url | file_id }.
      if (typeof part.file_data !== "string" && typeof part.file_url !== "string" && typeof part.file_id !== "string") return false;
      contents.unboundedInput ??= "an 'input_file' part";
      return true;
    case "document": {
      // Messages: a text or content source is text the walk counts; a PDF (base64, URL or file) is not bounded by its size.
      const source = part.source as { type?: unknown } | null | undefined;
      if (source === null || typeof source !== "object" || source.type === "text" || source.type === "content") return false;
      contents.unboundedInput ??= "a 'document' part";
      return true;
    }
    default:
      return false;
  }
}

/** An image by URL: a base64 data URL's header gives its size; any other URL (or a file id, given as "") is of unknown size. */
function addImage(contents: RequestContents, url: string, detail: string | null): boolean {
  const header = url.startsWith("data:") ? dataUrlPattern.exec(url) : null;
  contents.images.push({ size: header === null ? null : readImageSize(url, header[0].length), detail });
  contents.textTokens += requestFramingTokens;
  return true;
}

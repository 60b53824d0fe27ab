import type { ChatFinishReason } from "./formats/messages/map-anthropic-stop-reason.js";

/**
 * The provider-neutral chat request and answer: the shape every caller format translates to
 * (chat completions as they are, messages and Responses through their format modules) and that
 * a provider whose upstream speaks none of the caller formats (Bedrock Converse, Gemini
 * `generateContent`) translates from. It is the chat completions request, typed: the three
 * caller formats already translate to it losslessly or with an explicit `unsupported_feature`,
 * so one translation per provider serves every endpoint.
 *
 * Field names follow the chat completions wire (snake case) so a chat completions body is a
 * `ChatRequest` without copying. Fields not listed are kept in the index signature; a provider
 * refuses (422 `unsupported_feature`) any it cannot represent instead of dropping it.
 */
export interface ChatRequest {
  model: string;
  messages: ChatMessage[];
  stream?: boolean;
  stream_options?: { include_usage?: boolean };
  max_tokens?: number;
  max_completion_tokens?: number;
  temperature?: number;
  top_p?: number;
  stop?: string | string[];
  n?: number;
  seed?: number;
  presence_penalty?: number;
  frequency_penalty?: number;
  logprobs?: boolean;
  top_logprobs?: number;
  tools?: ChatTool[];
  tool_choice?: ChatToolChoice;
  parallel_tool_calls?: boolean;
  response_format?: ChatResponseFormat;
  reasoning_effort?: string;
  user?: string;
  metadata?: Record<string, string>;
  [field: string]: unknown;
}

/** A text, image, audio or file part of a message's content. */
export type ChatContentPart =
  | { type: "text"; text: string }
  | { type: "image_url"; image_url: { url: string; detail?: "auto" | "low" | "high" } }
  | { type: "input_audio"; input_audio: { data: string; format: string } }
  | { type: "file"; file: { file_data?: string; file_id?: string; filename?: string } };

/** A message's content: a string, or parts. */
export type ChatContent = string | ChatContentPart[];

/** A function call the assistant made (`arguments` is the JSON text the model wrote). */
export interface ChatToolCall {
  id: string;
  type: "function";
  function: { name: string; arguments: string };
}

/** One message of the conversation. */
export type ChatMessage =
  | { role: "system" | "developer"; content: ChatContent; name?: string }
  | { role: "user"; content: ChatContent; name?: string }
  | {
      role: "assistant";
      content?: ChatContent | null;
      tool_calls?: ChatToolCall[];
      refusal?: string | null;
      /** Reasoning an OpenAI-compatible upstream returned (`reasoning_content`), when a caller sends it back. */
      reasoning_content?: string;
      name?: string;
    }
  | { role: "tool"; tool_call_id: string; content: ChatContent };

/** A function the model may call (`parameters` is a JSON Schema). */
export interface ChatTool {
  type: "function";
  function: { name: string; description?: string; parameters?: Record<string, unknown>; strict?: boolean };
}

/** Which tool the model must, may or must not call. */
export type ChatToolChoice = "none" | "auto" | "required" | { type: "function"; function: { name: string } };

/** The answer's form: free text, any JSON object, or JSON matching a schema. */
export type ChatResponseFormat =
  | { type: "text" }
  | { type: "json_object" }
  | { type: "json_schema"; json_schema: { name: string; description?: string; schema?: Record<string, unknown>; strict?: boolean } };

/**
 * The neutral JSON answer: a chat completion. Translated to the caller's format by its format
 * module (`convertChatResponseToAnthropic`, `convertChatResponseToResponses`).
 */
export interface ChatCompletion {
  id: string;
  object: "chat.completion";
  created: number;
  model: string;
  choices: ChatCompletionChoice[];
  usage?: ChatCompletionUsage;
  system_fingerprint?: string | null;
}

/** One choice of a chat completion. */
export interface ChatCompletionChoice {
  index: number;
  message: {
    role: "assistant";
    content: string | null;
    refusal?: string | null;
    tool_calls?: ChatToolCall[];
    reasoning_content?: string;
  };
  finish_reason: ChatFinishReason | null;
  logprobs?: { content: ChatTokenLogprob[] | null } | null;
}

/** One output token's log-probability, with its alternatives when `top_logprobs` asked for them. */
export interface ChatTokenLogprob {
  token: string;
  logprob: number;
  bytes?: number[] | null;
  top_logprobs?: { token: string; logprob: number; bytes?: number[] | null }[];
}

/** A chat completion's usage, as OpenAI writes it (cached and reasoning tokens in the details). */
export interface ChatCompletionUsage {
  prompt_tokens: number;
  completion_tokens: number;
  total_tokens: number;
  prompt_tokens_details?: { cached_tokens?: number; cache_write_tokens?: number };
  completion_tokens_details?: { reasoning_tokens?: number };
}

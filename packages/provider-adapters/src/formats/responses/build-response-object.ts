import type { JsonObject } from "@gateway/contracts";
import type { NormalizedUsage } from "@gateway/contracts";
import { renderResponsesUsage } from "./responses-usage.js";

/** A JSON object. */

/** Options of {@link buildResponseObject}. */
export interface BuildResponseObjectOptions {
  /** `resp_...`. */
  id: string;
  /** Unix seconds. */
  createdAt: number;
  /** The model to report (`<connection>/<vendor>/<model>` on translated routes). */
  model: string;
  status: "in_progress" | "completed" | "incomplete" | "failed";
  output: JsonObject[];
  /** The Responses request as the caller sent it: the settings the response echoes. */
  request: JsonObject;
  usage?: NormalizedUsage | null;
  error?: { code: string; message: string } | null;
  incompleteReason?: "max_output_tokens" | "content_filter" | null;
  /** Unix seconds the answer completed (`completed_at` of a completed response); default now. */
  completedAt?: number;
}

const nullable = (value: unknown): unknown => (value === undefined ? null : value);

/**
 * A Responses `response` object (`object: "response"`) in the field order OpenAI answers with,
 * echoing the request's settings (`instructions`, `tools`, `tool_choice`, `text`, `reasoning`,
 * `metadata`, `max_output_tokens`, sampling) with OpenAI's defaults for those it left out, as the
 * gateway's translated answers and streams report it. The gateway's own conversation state
 * (`store`, `previous_response_id`) is set by the caller's endpoint afterwards.
 */
export function buildResponseObject(options: BuildResponseObjectOptions): JsonObject {
  const { request } = options;
  const text = typeof request.text === "object" && request.text !== null ? (request.text as JsonObject) : {};
  const reasoning = typeof request.reasoning === "object" && request.reasoning !== null ? (request.reasoning as JsonObject) : {};
  const response: JsonObject = {
    id: options.id,
    object: "response",
    created_at: options.createdAt,
    status: options.status,
    background: false,
    error: options.error ?? null,
    incomplete_details: options.incompleteReason ? { reason: options.incompleteReason } : null,
    instructions: nullable(request.instructions),
    max_output_tokens: nullable(request.max_output_tokens),
    max_tool_calls: null,
    model: options.model,
    output: options.output,
    parallel_tool_calls: request.parallel_tool_calls ?? true,
    previous_response_id: null,
    reasoning: { effort: nullable(reasoning.effort), summary: nullable(reasoning.summary) },
    service_tier: nullable(request.service_tier) ?? "auto",
    store: false,
    temperature: request.temperature ?? 1,
    text: { format: text.format ?? { type: "text" }, ...(text.verbosity === undefined ? {} : { verbosity: text.verbosity }) },
    tool_choice: request.tool_choice ?? "auto",
    tools: Array.isArray(request.tools) ? request.tools : [],
    top_logprobs: request.top_logprobs ?? 0,
    top_p: request.top_p ?? 1,
    truncation: request.truncation ?? "disabled",
    usage: options.usage === undefined || options.usage === null ? null : renderResponsesUsage(options.usage),
    user: nullable(request.user),
    metadata: request.metadata ?? {},
  };
  if (options.status === "completed") response.completed_at = Math.max(options.createdAt, options.completedAt ?? Math.floor(Date.now() / 1000));
  return response;
}

/** The text of a response's output messages, joined (the SDKs' `output_text`). */
export function outputTextOf(response: JsonObject): string {
  if (!Array.isArray(response.output)) return "";
  let text = "";
  for (const item of response.output as JsonObject[]) {
    if (item?.type !== "message" || !Array.isArray(item.content)) continue;
    for (const part of item.content as JsonObject[]) if (part?.type === "output_text" && typeof part.text === "string") text += part.text;
  }
  return text;
}

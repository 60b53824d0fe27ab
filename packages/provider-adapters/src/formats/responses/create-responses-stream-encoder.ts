import type { JsonObject } from "@gateway/contracts";
import type { NormalizedUsage } from "@gateway/contracts";
import { buildResponseObject } from "./build-response-object.js";
import { responsesErrorCode } from "./responses-error-code.js";
import type { ChatFinishReason } from "../messages/map-anthropic-stop-reason.js";
import type { SseEvent } from "../../stream/sse-event.js";
import { callerSafeError } from "../../stream/stream-errors.js";
import type { StreamFrame, StreamRenderer } from "../../stream/stream-part.js";

/** Options of {@link createResponsesStreamEncoder}. */
export interface ResponsesStreamEncoderOptions {
  /** The model name to report (`<connection>/<vendor>/<model>`). */
  model: string;
  /** The gateway request id: the response and item ids are derived from it. */
  requestId: string;
  /** The caller's Responses request (its settings are echoed in the response object). */
  request: JsonObject;
  /** Fields set on every response object (the gateway's `store` and `previous_response_id`). */
  overrides?: JsonObject;
  /** Unix seconds for `created_at`; defaults to when the encoder was made. */
  createdAt?: number;
  /** Clock in Unix seconds (`completed_at`; tests); default now. */
  now?: () => number;
}

/** One output item being streamed. */
interface OpenItem {
  outputIndex: number;
  item: JsonObject;
  /** Message and reasoning items: the content part being streamed, if any. */
  part: { index: number; type: "output_text" | "refusal" | "reasoning_text"; text: string } | null;
}

/**
 * Renders stream parts (of another wire format: chat completion chunks or Anthropic messages
 * events) as an OpenAI Responses stream, every event numbered by `sequence_number`:
 * `response.created` and `response.in_progress` first; a `message` item per run of text
 * (`response.output_item.added`, `response.content_part.added`, `response.output_text.delta`
 * ..., `response.output_text.done`, `response.content_part.done`, `response.output_item.done`;
 * refusal text as a `refusal` part with `response.refusal.delta` / `.done`); a `function_call`
 * item per tool call (`call_id` = the upstream's call id, arguments streamed with
 * `response.function_call_arguments.delta`, a call whose arguments never arrived gets `"{}"`);
 * a `reasoning` item with a `reasoning_text` part for reasoning the upstream streamed; then
 * `response.completed` (or `response.incomplete` for `length` / `content_filter` finishes) with
 * the whole response and its usage. An `error` part ends the output with an `error` event
 * (the gateway's code and message) and `response.failed` (the response so far, `error` set). Only
 * choice 0 is rendered. `result()` is the final response object.
 */
export function createResponsesStreamEncoder(options: ResponsesStreamEncoderOptions): StreamRenderer {
  const suffix = options.requestId.replace(/^req_/, "");
  const id = `resp_${suffix}`;
  const now = options.now ?? (() => Math.floor(Date.now() / 1000));
  const createdAt = options.createdAt ?? now();
  let sequence = 0;
  let started = false;
  let ended = false;
  let usage: NormalizedUsage | null = null;
  let finishReason: ChatFinishReason | null = null;
  let result: JsonObject | null = null;
  const output: JsonObject[] = [];
  let message: OpenItem | null = null;
  let reasoning: OpenItem | null = null;
  const calls = new Map<number, OpenItem & { sawArguments: boolean }>();

  const emit = (events: SseEvent[], type: string, payload: JsonObject) => {
    events.push({ event: type, data: JSON.stringify({ type, sequence_number: sequence, ...payload }) });
    sequence += 1;
  };

  const response = (status: "in_progress" | "completed" | "incomplete" | "failed", extra: Partial<Parameters<typeof buildResponseObject>[0]> = {}): JsonObject => ({
    ...buildResponseObject({ id, createdAt, model: options.model, status, output: status === "in_progress" ? [] : output.map((item) => structuredClone(item)), request: options.request, ...extra }),
    ...options.overrides,
  });

  function ensureStarted(events: SseEvent[]): void {
    if (started) return;
    started = true;
    emit(events, "response.created", { response: response("in_progress") });
    emit(events, "response.in_progress", { response: response("in_progress") });
  }

  function addItem(events: SseEvent[], item: JsonObject): OpenItem {
    const outputIndex = output.length;
    output.push(item);
    emit(events, "response.output_item.added", { output_index: outputIndex, item: structuredClone(item) });
    return { outputIndex, item, part: null };
  }

  function doneItem(events: SseEvent[], open: OpenItem): void {
    open.item.status = "completed";
    emit(events, "response.output_item.done", { output_index: open.outputIndex, item: structuredClone(open.item) });
  }

  function openPart(events: SseEvent[], open: OpenItem, type: "output_text" | "refusal" | "reasoning_text"): void {
    const content = open.item.content as JsonObject[];
    const index = content.length;
    const part: JsonObject = type === "output_text" ? { type, annotations: [], logprobs: [], text: "" } : type === "refusal" ? { type, refusal: "" } : { type, text: "" };
    content.push(part);
    open.part = { index, type, text: "" };
    emit(events, "response.content_part.added", { item_id: open.item.id, output_index: open.outputIndex, content_index: index, part: structuredClone(part) });
  }

  function closePart(events: SseEvent[], open: OpenItem): void {
    const part = open.part;
    if (part === null) return;
    const content = open.item.content as JsonObject[];
    const base = { item_id: open.item.id, output_index: open.outputIndex, content_index: part.index };
    if (part.type === "output_text") {
      content[part.index] = { type: "output_text", annotations: [], logprobs: [], text: part.text };
      emit(events, "response.output_text.done", { ...base, text: part.text, logprobs: [] });
    } else if (part.type === "refusal") {
      content[part.index] = { type: "refusal", refusal: part.text };
      emit(events, "response.refusal.done", { ...base, refusal: part.text });
    } else {
      content[part.index] = { type: "reasoning_text", text: part.text };
      emit(events, "response.reasoning_text.done", { ...base, text: part.text });
    }
    emit(events, "response.content_part.done", { ...base, part: structuredClone(content[part.index]) });
    open.part = null;
  }

  function closeMessage(events: SseEvent[]): void {
    if (message === null) return;
    closePart(events, message);
    doneItem(events, message);
    message = null;
  }

  function closeReasoning(events: SseEvent[]): void {
    if (reasoning === null) return;
    closePart(events, reasoning);
    doneItem(events, reasoning);
    reasoning = null;
  }

  function text(events: SseEvent[], delta: string, refusal: boolean): void {
    closeReasoning(events);
    message ??= addItem(events, { id: `msg_${suffix}_${output.length}`, type: "message", status: "in_progress", content: [], role: "assistant" });
    const type = refusal ? "refusal" : "output_text";
    if (message.part?.type !== type) {
      closePart(events, message);
      openPart(events, message, type);
    }
    const part = message.part!;
    part.text += delta;
    const base = { item_id: message.item.id, output_index: message.outputIndex, content_index: part.index };
    if (refusal) emit(events, "response.refusal.delta", { ...base, delta });
    else emit(events, "response.output_text.delta", { ...base, delta, logprobs: [] });
  }

  function endCall(events: SseEvent[], toolIndex: number): void {
    const call = calls.get(toolIndex);
    if (call === undefined) return;
    calls.delete(toolIndex);
    if (!call.sawArguments) {
      call.item.arguments = "{}";
      emit(events, "response.function_call_arguments.delta", { item_id: call.item.id, output_index: call.outputIndex, delta: "{}" });
    }
    emit(events, "response.function_call_arguments.done", { item_id: call.item.id, output_index: call.outputIndex, arguments: call.item.arguments, name: call.item.name });
    doneItem(events, call);
  }

  function closeAll(events: SseEvent[]): void {
    closeReasoning(events);
    closeMessage(events);
    for (const toolIndex of [...calls.keys()]) endCall(events, toolIndex);
  }

  return {
    render(frame: StreamFrame): SseEvent[] {
      const events: SseEvent[] = [];
      if (ended) return events;
      for (const part of frame.parts) {
        if ("choice" in part && part.choice !== 0) continue;
        switch (part.type) {
          case "start":
            ensureStarted(events);
            break;
          case "text-delta":
            ensureStarted(events);
            if (part.text !== "") text(events, part.text, part.refusal === true);
            break;
          case "text-end":
            closeMessage(events);
            break;
          case "reasoning-delta":
            ensureStarted(events);
            if (part.text === "") break;
            if (reasoning === null) {
              closeMessage(events);
              reasoning = addItem(events, { id: `rs_${suffix}_${output.length}`, type: "reasoning", summary: [], content: [] });
              openPart(events, reasoning, "reasoning_text");
            }
            reasoning.part!.text += part.text;
            emit(events, "response.reasoning_text.delta", { item_id: reasoning.item.id, output_index: reasoning.outputIndex, content_index: reasoning.part!.index, delta: part.text });
            break;
          case "tool-call-start": {
            ensureStarted(events);
            closeReasoning(events);
            closeMessage(events);
            const added = addItem(events, {
              id: `fc_${suffix}_${output.length}`,
              type: "function_call",
              status: "in_progress",
              arguments: "",
              call_id: part.id,
              name: part.name,
            });
            calls.set(part.toolIndex, { ...added, sawArguments: false });
            break;
          }
          case "tool-call-delta": {
            const call = calls.get(part.toolIndex);
            if (call === undefined || part.argumentsDelta === "") break;
            call.sawArguments = true;
            call.item.arguments = `${call.item.arguments as string}${part.argumentsDelta}`;
            emit(events, "response.function_call_arguments.delta", { item_id: call.item.id, output_index: call.outputIndex, delta: part.argumentsDelta });
            break;
          }
          case "tool-call-end":
            endCall(events, part.toolIndex);
            break;
          case "usage":
            usage = part.usage;
            break;
          case "finish":
            finishReason = part.reason;
            break;
          case "end": {
            ensureStarted(events);
            closeAll(events);
            const incompleteReason = finishReason === "length" ? "max_output_tokens" : finishReason === "content_filter" ? "content_filter" : null;
            result = response(incompleteReason === null ? "completed" : "incomplete", { usage, incompleteReason, completedAt: now() });
            emit(events, incompleteReason === null ? "response.completed" : "response.incomplete", { response: result });
            ended = true;
            break;
          }
          case "error": {
            ensureStarted(events);
            // The failed response keeps what was produced so far, its open items marked incomplete.
            for (const open of [message, reasoning, ...calls.values()]) {
              if (open === null) continue;
              if (open.part !== null) (open.item.content as JsonObject[])[open.part.index] = open.part.type === "refusal" ? { type: "refusal", refusal: open.part.text } : { ...(open.item.content as JsonObject[])[open.part.index], text: open.part.text };
              open.item.status = "incomplete";
            }
            const error = callerSafeError(part.error);
            emit(events, "error", { code: error.code, message: error.message, param: error.param ?? null });
            emit(events, "response.failed", { response: response("failed", { usage, error: { code: responsesErrorCode(error), message: error.message } }) });
            ended = true;
            break;
          }
          default:
            break;
        }
      }
      return events;
    },
    result: () => result,
  };
}

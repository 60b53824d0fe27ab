import type { NormalizedUsage } from "@gateway/contracts";
import { GatewayError } from "@gateway/errors";
import { isJsonObject } from "../../formats/request-guards.js";
import { malformedStreamEventError, truncatedStreamError } from "../../stream/stream-errors.js";
import type { StreamFrame, StreamPart } from "../../stream/stream-part.js";
import { tryParseJson } from "../../upstream-call.js";
import { normalizeConverseUsage } from "./converse-usage.js";
import { mapBedrockError } from "./map-bedrock-error.js";
import { mapConverseStopReason } from "./map-converse-stop-reason.js";
import { EventStreamFramingError, type EventStreamMessage, readEventStreamMessages } from "./read-event-stream-messages.js";

/** Options of {@link decodeConverseStream}. */
export interface DecodeConverseStreamOptions {
  /** The answer's id (Converse streams carry none: null lets the caller's encoder name it) and model, for the `start` part. */
  id: string | null;
  model: string;
  /** The forced tool of a translated `response_format`: its input streams as text. */
  jsonResponseTool?: string;
  provider: string;
  /** Credential strings that must never appear in an error. */
  secrets: readonly (string | null | undefined)[];
}

type BlockState = { kind: "text" } | { kind: "reasoning" } | { kind: "json"; hasText: boolean } | { kind: "tool"; toolIndex: number };

/**
 * Decodes a ConverseStream body (binary event stream, see `readEventStreamMessages`) into frames
 * of typed parts, one per event: `messageStart` -> start; `contentBlockStart` with a tool use
 * -> tool-call-start; `contentBlockDelta` text / tool input / reasoning -> text-delta /
 * tool-call-delta / reasoning-delta; `contentBlockStop` -> text-end / tool-call-end;
 * `messageStop` -> finish; `metadata` -> usage, then end. An exception message
 * (`:message-type: exception`: throttlingException, modelStreamErrorException, ...) becomes an
 * `error` part mapped like a JSON error; a corrupt frame (checksum) or an invalid event an error
 * part that stops reading; a stream cut before `messageStop` a truncation error. After
 * `messageStop` without `metadata`, the end comes when the body ends.
 */
export async function* decodeConverseStream(body: AsyncIterable<Uint8Array>, options: DecodeConverseStreamOptions): AsyncGenerator<StreamFrame> {
  const blocks = new Map<number, BlockState>();
  let toolCount = 0;
  let usedJsonTool = false;
  let finished = false;
  let usage: NormalizedUsage | undefined;
  const frame = (parts: StreamPart[]): StreamFrame => ({ source: null, payload: null, parts });
  const stopBlock = (index: number, state: BlockState, parts: StreamPart[]): void => {
    if (state.kind === "text") parts.push({ type: "text-end", choice: 0, block: index });
    else if (state.kind === "json") {
      if (!state.hasText) parts.push({ type: "text-delta", choice: 0, block: index, text: "{}" });
      parts.push({ type: "text-end", choice: 0, block: index });
    } else if (state.kind === "tool") parts.push({ type: "tool-call-end", choice: 0, toolIndex: state.toolIndex });
  };
  const ending = (parts: StreamPart[]): StreamFrame => {
    for (const [index, state] of blocks) stopBlock(index, state, parts);
    blocks.clear();
    parts.push({ type: "end" });
    return frame(parts);
  };

  yield frame([{ type: "start", id: options.id, model: options.model }]);
  try {
    for await (const message of readEventStreamMessages(body)) {
      const messageType = message.headers[":message-type"];
      if (messageType === "exception" || messageType === "error") {
        yield frame([{ type: "error", error: streamException(message, options) }]);
        return;
      }
      const payload = tryParseJson(message.body);
      const eventType = message.headers[":event-type"];
      if (messageType !== "event" || typeof eventType !== "string" || !isJsonObject(payload)) {
        yield frame([{ type: "error", error: malformedStreamEventError("a Converse event without a type or a JSON object payload") }]);
        return;
      }
      const parts: StreamPart[] = [];
      const index = payload.contentBlockIndex;
      const blockIndex = typeof index === "number" && Number.isInteger(index) && index >= 0 ? index : 0;
      switch (eventType) {
        case "contentBlockStart": {
          const toolUse = isJsonObject(payload.start) && isJsonObject(payload.start.toolUse) ? payload.start.toolUse : undefined;
          if (toolUse === undefined) break;
          if (typeof toolUse.name !== "string") {
            yield frame([{ type: "error", error: malformedStreamEventError("a tool use without a name") }]);
            return;
          }
          if (options.jsonResponseTool !== undefined && toolUse.name === options.jsonResponseTool) {
            usedJsonTool = true;
            blocks.set(blockIndex, { kind: "json", hasText: false });
            break;
          }
          const toolIndex = toolCount++;
          blocks.set(blockIndex, { kind: "tool", toolIndex });
          parts.push({ type: "tool-call-start", choice: 0, block: blockIndex, toolIndex, id: typeof toolUse.toolUseId === "string" ? toolUse.toolUseId : "", name: toolUse.name });
          break;
        }
        case "contentBlockDelta": {
          const delta = isJsonObject(payload.delta) ? payload.delta : {};
          let state = blocks.get(blockIndex);
          if (typeof delta.text === "string") {
            if (state === undefined) blocks.set(blockIndex, (state = { kind: "text" }));
            if (delta.text !== "" && state.kind === "text") parts.push({ type: "text-delta", choice: 0, block: blockIndex, text: delta.text });
          } else if (isJsonObject(delta.toolUse) && typeof delta.toolUse.input === "string" && delta.toolUse.input !== "") {
            if (state?.kind === "tool") parts.push({ type: "tool-call-delta", choice: 0, toolIndex: state.toolIndex, argumentsDelta: delta.toolUse.input });
            else if (state?.kind === "json") {
              state.hasText = true;
              parts.push({ type: "text-delta", choice: 0, block: blockIndex, text: delta.toolUse.input });
            }
          } else if (isJsonObject(delta.reasoningContent) && typeof delta.reasoningContent.text === "string") {
            if (state === undefined) blocks.set(blockIndex, { kind: "reasoning" });
            if (delta.reasoningContent.text !== "") parts.push({ type: "reasoning-delta", choice: 0, block: blockIndex, text: delta.reasoningContent.text });
          }
          break;
        }
        case "contentBlockStop": {
          const state = blocks.get(blockIndex);
          if (state !== undefined) {
            stopBlock(blockIndex, state, parts);
            blocks.delete(blockIndex);
          }
          break;
        }
        case "messageStop": {
          finished = true;
          const raw = typeof payload.stopReason === "string" ? payload.stopReason : null;
          let reason = mapConverseStopReason(raw);
          // Only the forced JSON tool was used: to the caller that is a plain answer.
          if (reason === "tool_calls" && usedJsonTool && toolCount === 0) reason = "stop";
          for (const [openIndex, state] of blocks) stopBlock(openIndex, state, parts);
          blocks.clear();
          parts.push({ type: "finish", choice: 0, reason, raw });
          break;
        }
        case "metadata":
          usage = normalizeConverseUsage(payload.usage);
          if (!finished) {
            parts.push({ type: "usage", usage });
            break;
          }
          yield ending([...parts, { type: "usage", usage }]);
          return;
        default:
          break; // messageStart (the start is already out) and event types added later
      }
      if (parts.length > 0) yield frame(parts);
    }
  } catch (error) {
    if (!(error instanceof EventStreamFramingError)) throw error;
    yield frame([{ type: "error", error: error.truncated ? truncatedStreamError() : malformedStreamEventError(`a corrupt binary event stream frame (${error.problem})`) }]);
    return;
  }
  yield finished ? ending(usage === undefined ? [] : [{ type: "usage", usage }]) : frame([{ type: "error", error: truncatedStreamError() }]);
}

/** An exception event (`:exception-type` header, `{"message"}` payload) as the caller's error. */
function streamException(message: EventStreamMessage, options: DecodeConverseStreamOptions): GatewayError {
  const errorType = message.headers[":exception-type"] ?? message.headers[":error-code"] ?? "internalServerException";
  const statusByType: Record<string, number> = { throttlingException: 429, validationException: 400, modelStreamErrorException: 424, serviceUnavailableException: 503, internalServerException: 500 };
  const body = tryParseJson(message.body) ?? { message: message.headers[":error-message"] };
  return mapBedrockError({ status: statusByType[errorType] ?? 500, headers: {}, body, errorType, provider: options.provider, secrets: options.secrets });
}

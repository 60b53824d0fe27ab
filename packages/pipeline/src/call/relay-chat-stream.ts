import { type ErrorCode, GatewayError, isErrorCode, normalizeError } from "@gateway/errors";
import type { CompiledGuardrails, OutputScanner } from "@gateway/policy-engine";
import type { SseEvent } from "@gateway/provider-adapters";
import type { CallLifetime } from "./call-lifetime.js";
import type { ChatFormat } from "../endpoints/parse-chat-body.js";
import { renderStreamErrorEvent } from "./render-stream-error-event.js";

/** Longest output text kept for content capture (longer answers are cut, `truncated: true`). */
export const maxCapturedTextCharacters = 1_048_576;

/** How a relayed stream ended, for settlement and the usage event. */
export interface StreamOutcome {
  /** The provider's stream reached its end (`[DONE]`, `message_stop`, or a final finish reason). */
  completed: boolean;
  /**
   * What went wrong, if anything: an in-stream provider error, a read failure, a blocking
   * output guardrail, the deadline (`request_timeout`) or the caller leaving (`client_cancelled`).
   */
  error: GatewayError | null;
  /** Characters of text and tool-call arguments the caller was sent (partial-usage estimate). */
  outputCharacters: number;
  /** The text sent, when capture was asked for. */
  text: string | null;
  truncated: boolean;
  /** Names of flagging output guardrails. */
  guardrailFlags: string[];
  /** Epoch ms the first event was handed to the caller, or null. */
  firstEventAt: number | null;
}

/** Options of {@link relayChatStream}. */
export interface RelayChatStreamOptions {
  /** The provider's events, already in the caller's wire format. */
  events: AsyncIterable<SseEvent>;
  format: ChatFormat;
  requestId: string;
  /** The caller's guardrails when they have output rules, else null (events pass untouched). */
  guardrails: CompiledGuardrails | null;
  /** Keep the text sent (the project captures content). */
  captureText: boolean;
  lifetime: CallLifetime;
  /** Called exactly once, when the stream ended for any reason. */
  onEnd: (outcome: StreamOutcome) => void;
}

/**
 * Relays a provider stream to the caller event by event (never buffered: each event is yielded
 * as soon as the provider's arrived), and watches it:
 * - Output guardrails (only when the caller has output rules): the text of each delta event
 *   goes through the bounded hold-back scanner of `@gateway/policy-engine`; only the text
 *   inside delta events is delayed or redacted, every other event passes unchanged, so the SSE
 *   framing stays valid. Held-back text is released at the end of its choice (OpenAI: added
 *   to the chunk with the `finish_reason`) or block (Anthropic: one extra `text_delta` before
 *   `content_block_stop`). A blocking rule ends the stream with the protocol's error event.
 * - A failure after the start (read error, timeout, truncated stream) ends the stream with the
 *   protocol's error event; the provider's own in-stream error events pass through as they are.
 * - The caller leaving (the consumer stops iterating, or the lifetime is cancelled) closes the
 *   upstream request at once; nothing more is sent.
 */
export function relayChatStream(options: RelayChatStreamOptions): AsyncIterable<SseEvent> {
  const { format, lifetime } = options;
  const outcome: StreamOutcome = {
    completed: false,
    error: null,
    outputCharacters: 0,
    text: options.captureText ? "" : null,
    truncated: false,
    guardrailFlags: [],
    firstEventAt: null,
  };
  const scanners = new Map<number, OutputScanner>();
  let sawFinish = false;
  let ended = false;
  let lastChunk: Record<string, unknown> | null = null;

  const end = () => {
    if (ended) return;
    ended = true;
    if (!outcome.completed && outcome.error === null) {
      outcome.error = new GatewayError("client_cancelled");
      lifetime.cancel();
    }
    const flags = new Set<string>();
    for (const scanner of scanners.values()) for (const flag of scanner.flags) flags.add(flag);
    for (const flag of retiredFlags) flags.add(flag);
    outcome.guardrailFlags = [...flags];
    lifetime.dispose();
    options.onEnd(outcome);
  };
  const retiredFlags = new Set<string>();

  const record = (text: string) => {
    outcome.outputCharacters += text.length;
    if (outcome.text !== null && text !== "") {
      if (outcome.text.length + text.length > maxCapturedTextCharacters) {
        outcome.text += text.slice(0, Math.max(0, maxCapturedTextCharacters - outcome.text.length));
        outcome.truncated = true;
      } else outcome.text += text;
    }
  };

  const scannerFor = (index: number): OutputScanner => {
    let scanner = scanners.get(index);
    if (scanner === undefined) {
      scanner = options.guardrails!.createOutputScanner();
      scanners.set(index, scanner);
    }
    return scanner;
  };
  const retire = (index: number) => {
    const scanner = scanners.get(index);
    if (scanner === undefined) return;
    for (const flag of scanner.flags) retiredFlags.add(flag);
    scanners.delete(index);
  };

  /** Processes one provider event; returns the events to send and a blocking guardrail error, if any. */
  function processEvent(event: SseEvent): { events: SseEvent[]; blocked?: GatewayError } {
    return format === "openai" ? processChatEvent(event) : processMessagesEvent(event);
  }

  function processChatEvent(event: SseEvent): { events: SseEvent[]; blocked?: GatewayError } {
    if (event.data === "[DONE]") {
      outcome.completed = true;
      const events: SseEvent[] = [];
      // Choices that never finished: release what their scanner still holds.
      for (const [index, scanner] of [...scanners]) {
        const last = scanner.flush();
        retire(index);
        if (last.blocked) return { events, blocked: last.blocked };
        if (last.emit !== "") {
          record(last.emit);
          events.push({ data: JSON.stringify({ ...chunkEnvelope(), choices: [{ index, delta: { content: last.emit }, finish_reason: null }] }) });
        }
      }
      events.push(event);
      return { events };
    }
    const chunk = parseObject(event.data);
    if (chunk === null) return { events: [event] };
    if (chunk.error !== undefined && chunk.error !== null) {
      outcome.error = errorFromChatPayload(chunk);
      return { events: [event] };
    }
    if (!Array.isArray(chunk.choices)) return { events: [event] };
    lastChunk = chunk;
    let changed = false;
    for (const choice of chunk.choices as Record<string, unknown>[]) {
      if (typeof choice !== "object" || choice === null) continue;
      const index = typeof choice.index === "number" ? choice.index : 0;
      let delta = choice.delta as Record<string, unknown> | null | undefined;
      if (typeof delta === "object" && delta !== null) {
        if (typeof delta.content === "string") {
          if (options.guardrails !== null) {
            const scanned = scannerFor(index).push(delta.content);
            if (scanned.blocked) return { events: [], blocked: scanned.blocked };
            delta.content = scanned.emit;
            changed = true;
          }
          record(delta.content as string);
        }
        if (Array.isArray(delta.tool_calls)) {
          for (const call of delta.tool_calls as { function?: { arguments?: unknown } }[]) {
            const fragment = call?.function?.arguments;
            if (typeof fragment === "string") outcome.outputCharacters += fragment.length;
          }
        }
      }
      if (choice.finish_reason !== null && choice.finish_reason !== undefined) {
        sawFinish = true;
        const scanner = scanners.get(index);
        if (scanner !== undefined) {
          const last = scanner.flush();
          retire(index);
          if (last.blocked) return { events: [], blocked: last.blocked };
          if (last.emit !== "") {
            if (typeof delta !== "object" || delta === null) {
              delta = {};
              choice.delta = delta;
            }
            delta.content = `${typeof delta.content === "string" ? delta.content : ""}${last.emit}`;
            record(last.emit);
            changed = true;
          }
        }
      }
    }
    return { events: [changed ? { ...event, data: JSON.stringify(chunk) } : event] };
  }

  function chunkEnvelope(): Record<string, unknown> {
    const last = lastChunk ?? {};
    return { id: last.id, object: "chat.completion.chunk", created: last.created, model: last.model };
  }

  function processMessagesEvent(event: SseEvent): { events: SseEvent[]; blocked?: GatewayError } {
    const name = event.event;
    if (name === "message_stop") {
      outcome.completed = true;
      return { events: [event] };
    }
    if (name === "error") {
      outcome.error = errorFromMessagesPayload(parseObject(event.data));
      return { events: [event] };
    }
    if (name === "message_delta") {
      sawFinish = true;
      return { events: [event] };
    }
    if (name === "content_block_delta") {
      const payload = parseObject(event.data);
      const delta = payload?.delta as Record<string, unknown> | undefined;
      if (payload === null || typeof delta !== "object" || delta === null) return { events: [event] };
      if (delta.type === "text_delta" && typeof delta.text === "string") {
        if (options.guardrails !== null) {
          const index = typeof payload.index === "number" ? payload.index : 0;
          const scanned = scannerFor(index).push(delta.text);
          if (scanned.blocked) return { events: [], blocked: scanned.blocked };
          delta.text = scanned.emit;
          record(scanned.emit);
          return { events: [{ ...event, data: JSON.stringify(payload) }] };
        }
        record(delta.text);
      } else if (delta.type === "input_json_delta" && typeof delta.partial_json === "string") {
        outcome.outputCharacters += delta.partial_json.length;
      } else if (delta.type === "thinking_delta" && typeof delta.thinking === "string") {
        outcome.outputCharacters += delta.thinking.length;
      }
      return { events: [event] };
    }
    if (name === "content_block_stop" && scanners.size > 0) {
      const payload = parseObject(event.data);
      const index = typeof payload?.index === "number" ? payload.index : 0;
      const scanner = scanners.get(index);
      if (scanner === undefined) return { events: [event] };
      const last = scanner.flush();
      retire(index);
      if (last.blocked) return { events: [], blocked: last.blocked };
      if (last.emit === "") return { events: [event] };
      record(last.emit);
      const released: SseEvent = {
        event: "content_block_delta",
        data: JSON.stringify({ type: "content_block_delta", index, delta: { type: "text_delta", text: last.emit } }),
      };
      return { events: [released, event] };
    }
    return { events: [event] };
  }

  async function* run(): AsyncGenerator<SseEvent> {
    const upstream = options.events[Symbol.asyncIterator]();
    let upstreamDone = false;
    try {
      for (;;) {
        let next: IteratorResult<SseEvent>;
        try {
          next = await upstream.next();
        } catch (thrown) {
          upstreamDone = true;
          const failure = failureOf(thrown);
          outcome.error = failure;
          // Nobody is left to read an error event when the caller went away.
          if (failure.code !== "client_cancelled") yield renderStreamErrorEvent(failure, { format, requestId: options.requestId });
          return;
        }
        if (next.done) {
          upstreamDone = true;
          break;
        }
        const processed = processEvent(next.value);
        for (const event of processed.events) {
          outcome.firstEventAt ??= Date.now();
          yield event;
        }
        if (processed.blocked) {
          outcome.error = processed.blocked;
          yield renderStreamErrorEvent(processed.blocked, { format, requestId: options.requestId });
          return;
        }
      }
      if (!outcome.completed && outcome.error === null) {
        if (sawFinish) outcome.completed = true;
        else {
          outcome.error = new GatewayError("upstream_error", { message: "The provider stream ended before it completed." });
          yield renderStreamErrorEvent(outcome.error, { format, requestId: options.requestId });
        }
      }
    } finally {
      // Stopping early (consumer gone, guardrail block): close the upstream request now.
      if (!upstreamDone) {
        if (!outcome.completed && outcome.error === null) lifetime.cancel();
        await upstream.return?.().catch(() => undefined);
      }
      end();
    }
  }

  function failureOf(thrown: unknown): GatewayError {
    const code = lifetime.abortCode();
    if (code !== null) return new GatewayError(code, { cause: thrown });
    return normalizeError(thrown);
  }

  const generator = run();
  let started = false;
  return {
    [Symbol.asyncIterator](): AsyncIterator<SseEvent> {
      return {
        next() {
          started = true;
          return generator.next();
        },
        async return(value?: unknown) {
          if (!started) {
            // Never iterated: the generator body will not run, so close the upstream here.
            started = true;
            lifetime.cancel();
            await options.events[Symbol.asyncIterator]().return?.().catch(() => undefined);
            end();
          }
          return generator.return(value as undefined);
        },
      };
    },
  };
}

function parseObject(text: string): Record<string, unknown> | null {
  try {
    const value = JSON.parse(text) as unknown;
    return typeof value === "object" && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

const codeByAnthropicType: Record<string, ErrorCode> = {
  overloaded_error: "service_unavailable",
  rate_limit_error: "upstream_rate_limited",
  timeout_error: "upstream_timeout",
  api_error: "upstream_error",
  invalid_request_error: "invalid_request",
  request_too_large: "request_too_large",
  permission_error: "permission_denied",
  not_found_error: "not_found",
};

/** The error of an in-stream Anthropic `error` event (provider's own, or the gateway's translated one). */
function errorFromMessagesPayload(payload: Record<string, unknown> | null): GatewayError {
  const error = (payload?.error ?? {}) as { type?: unknown; message?: unknown };
  const type = typeof error.type === "string" ? error.type : "api_error";
  return new GatewayError(codeByAnthropicType[type] ?? "upstream_error", {
    message: typeof error.message === "string" && error.message !== "" ? error.message : "The provider stream failed.",
  });
}

/** The error of an in-stream OpenAI error chunk (gateway body: its `code`; provider's: upstream_error). */
function errorFromChatPayload(payload: Record<string, unknown>): GatewayError {
  const error = (payload.error ?? {}) as { code?: unknown; message?: unknown };
  const code: ErrorCode = isErrorCode(error.code) ? error.code : "upstream_error";
  return new GatewayError(code, {
    message: typeof error.message === "string" && error.message !== "" ? error.message : "The provider stream failed.",
  });
}

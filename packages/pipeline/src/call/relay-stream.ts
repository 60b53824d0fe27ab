import type { NormalizedUsage } from "@gateway/contracts";
import { GatewayError, normalizeError } from "@gateway/errors";
import type { CompiledGuardrails, OutputScanner } from "@gateway/policy-engine";
import { type SseEvent, type StreamFrame, type StreamPart, type StreamRenderer, errorFrame } from "@gateway/provider-adapters";
import type { CallLifetime } from "./call-lifetime.js";

/** Longest output text kept for content capture (longer answers are cut, `truncated: true`). */
export const maxCapturedTextCharacters = 1_048_576;

/** How a relayed stream ended, for settlement and the usage event. */
export interface StreamOutcome {
  /** The answer completed (an `end` part: `[DONE]`, `message_stop`, or a finish the gateway completed). */
  completed: boolean;
  /**
   * What went wrong, if anything: the provider's in-stream error, an invalid event, a read
   * failure or timeout, a blocking output guardrail, or the caller leaving (`client_cancelled`).
   */
  error: GatewayError | null;
  /** The last usage the provider reported (cumulative), or null when it reported none. */
  usage: NormalizedUsage | null;
  /** Characters of text, reasoning and tool-call arguments the provider produced (partial-usage estimate). */
  outputCharacters: number;
  /** The text sent to the caller, when capture was asked for. */
  text: string | null;
  truncated: boolean;
  /** Names of flagging output guardrails. */
  guardrailFlags: string[];
  /** Epoch ms the first event was handed to the caller, or null. */
  firstEventAt: number | null;
}

/** Options of {@link relayStream}. */
export interface RelayStreamOptions {
  /** The upstream's frames (typed parts, with the provider's own event of each). */
  frames: AsyncIterable<StreamFrame>;
  /** Renders frames in the caller's wire format (native passthrough or translation). */
  renderer: StreamRenderer;
  /** The caller's guardrails when they have output rules, else null (parts pass untouched). */
  guardrails: CompiledGuardrails | null;
  /** Keep the text sent (the project captures content). */
  captureText: boolean;
  lifetime: CallLifetime;
  /** Called exactly once, when the stream ended for any reason. */
  onEnd: (outcome: StreamOutcome) => void;
  /**
   * Awaited once the answer completed (the frame with the `end` part was rendered), before that
   * frame's events are handed to the caller: what it records is in place when the caller sees
   * the terminal event. Must not throw.
   */
  beforeCompletion?: () => Promise<void>;
}

/**
 * Relays a provider stream to the caller frame by frame (never buffered: each frame's events are
 * yielded as soon as the upstream event arrived), seeing only typed parts:
 * - Output guardrails (only when the caller has output rules) see every part: the text of each
 *   `text-delta` goes through the bounded hold-back scanner of `@gateway/policy-engine` (changed
 *   text marks the frame modified, so a native renderer re-serialises it instead of forwarding the
 *   provider's bytes); held-back text is released as a `text-delta` just before its `text-end`;
 *   a tool call's arguments are checked whole at `tool-call-end` (block and flag rules). A
 *   blocking rule ends the stream with the protocol's error event; the blocked frame is not sent.
 * - Usage: the last `usage` part; characters produced (for the estimate of a cut stream).
 * - A failure after the start (invalid event, read error, timeout) ends the stream with the
 *   protocol's error event; the provider's own error events pass through as the renderer decides.
 * - The caller leaving (the consumer stops iterating, or the lifetime is cancelled) closes the
 *   upstream request at once; nothing more is sent.
 */
export function relayStream(options: RelayStreamOptions): AsyncIterable<SseEvent> {
  const { lifetime, renderer, guardrails } = options;
  const outcome: StreamOutcome = {
    completed: false,
    error: null,
    usage: null,
    outputCharacters: 0,
    text: options.captureText ? "" : null,
    truncated: false,
    guardrailFlags: [],
    firstEventAt: null,
  };
  const scanners = new Map<string, OutputScanner>();
  const toolArguments = new Map<string, string>();
  const flags = new Set<string>();
  let ended = false;

  const end = () => {
    if (ended) return;
    ended = true;
    if (!outcome.completed && outcome.error === null) {
      outcome.error = new GatewayError("client_cancelled");
      lifetime.cancel();
    }
    for (const scanner of scanners.values()) for (const flag of scanner.flags) flags.add(flag);
    outcome.guardrailFlags = [...flags];
    lifetime.dispose();
    options.onEnd(outcome);
  };

  const capture = (text: string) => {
    if (outcome.text === null || text === "") return;
    if (outcome.text.length + text.length > maxCapturedTextCharacters) {
      outcome.text += text.slice(0, Math.max(0, maxCapturedTextCharacters - outcome.text.length));
      outcome.truncated = true;
    } else outcome.text += text;
  };

  /** Releases what a text run's scanner still holds, as a synthetic part; retires the scanner. */
  function release(key: string, like: { choice: number; block?: number }, parts: StreamPart[]): GatewayError | null {
    const scanner = scanners.get(key);
    if (scanner === undefined) return null;
    const last = scanner.flush();
    for (const flag of scanner.flags) flags.add(flag);
    scanners.delete(key);
    if (last.blocked) return last.blocked;
    if (last.emit !== "") {
      capture(last.emit);
      parts.push({ type: "text-delta", choice: like.choice, ...(like.block === undefined ? {} : { block: like.block }), text: last.emit, synthetic: true });
    }
    return null;
  }

  /**
   * Watches one frame: accounting, usage, completion, and the output guardrails (which may
   * change its parts). Returns the error of a blocking guardrail, if one matched.
   */
  function inspect(frame: StreamFrame): GatewayError | null {
    let parts: StreamPart[] | null = null; // rebuilt only when guardrails add parts
    if (guardrails !== null) parts = [];
    for (const part of frame.parts) {
      switch (part.type) {
        case "text-delta": {
          outcome.outputCharacters += part.text.length;
          if (guardrails !== null) {
            const key = `${part.choice}:${part.block ?? ""}`;
            let scanner = scanners.get(key);
            if (scanner === undefined) {
              scanner = guardrails.createOutputScanner();
              scanners.set(key, scanner);
            }
            const scanned = scanner.push(part.text);
            if (scanned.blocked) return scanned.blocked;
            if (scanned.emit !== part.text) {
              part.text = scanned.emit;
              frame.modified = true;
            }
          }
          capture(part.text);
          break;
        }
        case "text-end":
          if (guardrails !== null) {
            const blocked = release(`${part.choice}:${part.block ?? ""}`, part, parts!);
            if (blocked) return blocked;
          }
          break;
        case "reasoning-delta":
          outcome.outputCharacters += part.text.length;
          break;
        case "tool-call-delta":
          outcome.outputCharacters += part.argumentsDelta.length;
          if (guardrails !== null) {
            const key = `${part.choice}:${part.toolIndex}`;
            toolArguments.set(key, (toolArguments.get(key) ?? "") + part.argumentsDelta);
          }
          break;
        case "tool-call-end":
          if (guardrails !== null) {
            const key = `${part.choice}:${part.toolIndex}`;
            const checked = guardrails.checkOutput(toolArguments.get(key) ?? "");
            toolArguments.delete(key);
            if (checked.blocked) return checked.blocked;
            for (const flag of checked.flags) flags.add(flag);
          }
          break;
        case "usage":
          outcome.usage = part.usage;
          break;
        case "end":
          if (guardrails !== null) {
            for (const key of [...scanners.keys()]) {
              const blocked = release(key, { choice: Number(key.split(":")[0]) }, parts!);
              if (blocked) return blocked;
            }
          }
          outcome.completed = true;
          break;
        case "error":
          outcome.error = part.error;
          break;
        default:
          break;
      }
      parts?.push(part);
    }
    if (parts !== null && parts.length !== frame.parts.length) {
      frame.parts = parts;
      frame.modified = true;
    }
    return null;
  }

  // The generator is a module function: a generator function declared here would be a new
  // function per stream, and V8 gives each one its own prototype and hidden class.
  const generator = relayEvents({ frames: options.frames, beforeCompletion: options.beforeCompletion, lifetime, renderer, outcome, inspect, end });
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
            await options.frames[Symbol.asyncIterator]().return?.().catch(() => undefined);
            end();
          }
          return generator.return(value as undefined);
        },
      };
    },
  };
}

/** What {@link relayEvents} works with: one stream's state inside {@link relayStream}. */
interface RelayRun {
  frames: AsyncIterable<StreamFrame>;
  beforeCompletion: (() => Promise<void>) | undefined;
  lifetime: CallLifetime;
  renderer: StreamRenderer;
  outcome: StreamOutcome;
  /** The frame's checks and accounting; a blocking error ends the stream. */
  inspect(frame: StreamFrame): GatewayError | null;
  /** Settles the stream once (idempotent). */
  end(): void;
}

/** The relay's events: frames in, rendered events out, the outcome settled at the end whatever happens. */
async function* relayEvents(relay: RelayRun): AsyncGenerator<SseEvent> {
  const { outcome, renderer, lifetime } = relay;
  const upstream = relay.frames[Symbol.asyncIterator]();
  let upstreamDone = false;
  try {
    for (;;) {
      let next: IteratorResult<StreamFrame>;
      try {
        next = await upstream.next();
      } catch (thrown) {
        upstreamDone = true;
        const failure = failureOf(lifetime, thrown);
        outcome.error = failure;
        // Nobody is left to read an error event when the caller went away.
        if (failure.code !== "client_cancelled") yield* renderer.render(errorFrame(failure));
        return;
      }
      if (next.done) {
        upstreamDone = true;
        break;
      }
      const blocked = relay.inspect(next.value);
      if (blocked !== null) {
        outcome.error = blocked;
        yield* renderer.render(errorFrame(blocked));
        return;
      }
      const rendered = renderer.render(next.value);
      if (outcome.completed && relay.beforeCompletion !== undefined) await relay.beforeCompletion();
      for (const event of rendered) {
        outcome.firstEventAt ??= Date.now();
        yield event;
      }
      if (outcome.completed || outcome.error !== null) {
        // The answer ended. What the upstream still sends is drained in the background (so its
        // connection can be reused, and bounded by its idle timeout) while the caller's answer ends now.
        upstreamDone = true;
        void upstream.next().catch(() => undefined);
        return;
      }
    }
    if (!outcome.completed && outcome.error === null) {
      outcome.error = new GatewayError("upstream_error", { message: "The provider stream ended before it completed." });
      yield* renderer.render(errorFrame(outcome.error));
    }
  } finally {
    // Stopping early (consumer gone, guardrail block): close the upstream request now.
    if (!upstreamDone) {
      if (!outcome.completed && outcome.error === null) lifetime.cancel();
      await upstream.return?.().catch(() => undefined);
    }
    relay.end();
  }
}

function failureOf(lifetime: CallLifetime, thrown: unknown): GatewayError {
  const code = lifetime.abortCode();
  if (code !== null) return new GatewayError(code, { cause: thrown });
  return normalizeError(thrown);
}

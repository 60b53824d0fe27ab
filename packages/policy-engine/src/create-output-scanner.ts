import type { GatewayError } from "@gateway/errors";
import {
  findAllMatches,
  guardrailBlockedError,
  redactionMarker,
  type CompiledGuardrailRule,
} from "./compiled-guardrail-rule.js";

/** Options of an output scanner. */
export interface OutputScannerOptions {
  /**
   * Characters held back from the visible stream so that a match split across deltas is
   * recognised before any of it is emitted. Default: computed from the output rules.
   */
  holdbackCharacters?: number;
}

/** What a scanner step releases. */
export interface OutputScanResult {
  /** Text to forward now (possibly with `[REDACTED:<kind>]` markers). */
  emit: string;
  /** Set when a `block` guardrail matched; stop the stream and send an error event. */
  blocked?: GatewayError;
}

/** Scans one streamed response, delta by delta. */
export interface OutputScanner {
  push(delta: string): OutputScanResult;
  /** Releases everything held back; call once at the end of the stream. */
  flush(): OutputScanResult;
  /** Names of the `flag` guardrails that matched so far. */
  readonly flags: string[];
}

/** Already-emitted text kept so that look-behind checks see the characters before a match. */
const contextCharacters = 64;
/** Longest open-ended match (a secret or a private key block) that can be suppressed as it grows. */
const maxSuppressedCharacters = 65_536;

/**
 * The streaming output scanner: a state machine over a small buffer.
 *
 * After each `push`, every character older than the last `holdbackCharacters` has been
 * released (emitted, or suppressed inside a redaction): the visible stream is never more
 * than the window late. A match that starts before the window is acted on: `block` stops
 * the stream, `flag` records the name, `redact` emits the marker once and suppresses the
 * match, including its continuation when an open-ended match (a key, a PEM block) keeps growing.
 */
export function createOutputScanner(
  rules: readonly CompiledGuardrailRule[],
  options: { holdbackCharacters: number },
): OutputScanner {
  const holdback = Math.max(0, options.holdbackCharacters);
  const flags = new Set<string>();
  let buffer = "";
  let bufferStart = 0;
  let total = 0;
  let emittedUntil = 0;
  let openRedactionStart: number | null = null;
  let blocked: GatewayError | null = null;

  const slice = (from: number, to: number): string => buffer.slice(from - bufferStart, to - bufferStart);

  function process(boundary: number): OutputScanResult {
    let output = "";
    let openGrowing = false;
    for (const match of findAllMatches(rules, buffer)) {
      const start = match.start + bufferStart;
      const end = match.end + bufferStart;
      if (start >= boundary) break;
      if (end <= emittedUntil) continue;
      const { rule } = match;
      if (rule.action === "flag") {
        flags.add(rule.name);
        continue;
      }
      if (rule.action === "block") {
        if (start > emittedUntil) output += slice(emittedUntil, start);
        emittedUntil = Math.max(emittedUntil, start);
        blocked = guardrailBlockedError(rule, "output", match.kind);
        return { emit: output, blocked };
      }
      if (start >= emittedUntil) {
        output += slice(emittedUntil, start) + redactionMarker(match.kind);
        openRedactionStart = start;
      } else if (openRedactionStart === null || start < openRedactionStart) {
        // The beginning was released before it could be recognised; hide the rest.
        output += redactionMarker(match.kind);
        openRedactionStart = start;
      }
      emittedUntil = end;
      openGrowing = end === total;
    }
    if (boundary > emittedUntil) {
      output += slice(emittedUntil, boundary);
      emittedUntil = boundary;
    }
    if (!openGrowing || openRedactionStart === null || total - openRedactionStart > maxSuppressedCharacters) {
      openRedactionStart = null;
    }
    let keepFrom = Math.max(bufferStart, emittedUntil - contextCharacters);
    if (openRedactionStart !== null) keepFrom = Math.min(keepFrom, openRedactionStart);
    keepFrom = Math.min(keepFrom, emittedUntil);
    if (keepFrom > bufferStart) {
      buffer = buffer.slice(keepFrom - bufferStart);
      bufferStart = keepFrom;
    }
    return { emit: output };
  }

  return {
    push(delta) {
      if (blocked) return { emit: "", blocked };
      if (rules.length === 0) return { emit: delta };
      buffer += delta;
      total += delta.length;
      return process(Math.max(emittedUntil, total - holdback));
    },
    flush() {
      if (blocked) return { emit: "", blocked };
      if (rules.length === 0) return { emit: "" };
      const result = process(total);
      openRedactionStart = null;
      return result;
    },
    get flags() {
      return [...flags];
    },
  };
}

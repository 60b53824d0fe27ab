import { GatewayError } from "@gateway/errors";
import { getDetector, type Detector } from "./guardrail-detectors.js";
import type { GuardrailAction, GuardrailRule } from "./guardrails-config.js";

/** A match of one rule in a text: `[start, end)` and the redaction label. */
export interface GuardrailMatch {
  start: number;
  end: number;
  kind: string;
  rule: CompiledGuardrailRule;
}

/** A content rule (everything but `max_input_characters`), ready to scan. */
export interface CompiledGuardrailRule {
  name: string;
  type: GuardrailRule["type"];
  action: GuardrailAction;
  input: boolean;
  output: boolean;
  /** Hold-back a stream needs for this rule (see `Detector.windowCharacters`). */
  windowCharacters: number;
  find(text: string): GuardrailMatch[];
}

/**
 * Regular expressions (configured ones) run over at most this many characters per
 * evaluation; longer texts are scanned in overlapping windows. This bounds the cost of the
 * polynomial patterns that the configuration check lets through.
 */
export const regexEvaluationWindowCharacters = 4096;

/** Compiles one content rule; `max_input_characters` rules are handled by the caller. */
export function compileGuardrailRule(rule: Exclude<GuardrailRule, { type: "max_input_characters" }>): CompiledGuardrailRule {
  const input = rule.appliesTo !== "output";
  const output = rule.appliesTo !== "input";
  const base = { name: rule.name, type: rule.type, action: rule.action, input, output };
  switch (rule.type) {
    case "pii":
    case "secrets": {
      const selected = [...new Set<string>(rule.detectors)].map((kind) => getDetector(kind as Detector["kind"]));
      const compiled: CompiledGuardrailRule = {
        ...base,
        windowCharacters: Math.max(...selected.map((detector) => detector.windowCharacters)),
        find: (text) => {
          const matches: GuardrailMatch[] = [];
          for (const detector of selected) findDetector(detector, text, compiled, matches);
          return matches;
        },
      };
      return compiled;
    }
    case "blocked_terms": {
      const alternatives = [...new Set(rule.terms.map((term) => term.toLowerCase()))]
        .sort((left, right) => right.length - left.length)
        .map(escapeRegex)
        .join("|");
      const source = rule.wholeWord ? `(?<![\\p{L}\\p{N}_])(?:${alternatives})(?![\\p{L}\\p{N}_])` : `(?:${alternatives})`;
      const expression = new RegExp(source, "giu");
      const longest = Math.max(...rule.terms.map((term) => term.length));
      const compiled: CompiledGuardrailRule = {
        ...base,
        windowCharacters: longest + 2,
        find: (text) => collect(expression, text, compiled, rule.name),
      };
      return compiled;
    }
    case "regex": {
      const expression = new RegExp(rule.pattern, `gu${rule.flags}`);
      const overlap = rule.maxMatchCharacters;
      const compiled: CompiledGuardrailRule = {
        ...base,
        windowCharacters: overlap + 1,
        find: (text) => findWindowed(expression, text, overlap, compiled, rule.name),
      };
      return compiled;
    }
  }
}

function findDetector(detector: Detector, text: string, rule: CompiledGuardrailRule, matches: GuardrailMatch[]): void {
  detector.expression.lastIndex = 0;
  for (const match of text.matchAll(detector.expression)) {
    if (match[0].length === 0) continue;
    if (detector.validate && !detector.validate(match[0])) continue;
    matches.push({ start: match.index, end: match.index + match[0].length, kind: detector.kind, rule });
  }
}

function collect(expression: RegExp, text: string, rule: CompiledGuardrailRule, kind: string, offset = 0): GuardrailMatch[] {
  const matches: GuardrailMatch[] = [];
  for (const match of text.matchAll(expression)) {
    if (match[0].length === 0) continue;
    matches.push({ start: offset + match.index, end: offset + match.index + match[0].length, kind, rule });
  }
  return matches;
}

/**
 * Runs a configured expression over windows of {@link regexEvaluationWindowCharacters} that
 * overlap by `overlap` characters; a match is kept once (by the first window that sees it start).
 */
function findWindowed(expression: RegExp, text: string, overlap: number, rule: CompiledGuardrailRule, kind: string): GuardrailMatch[] {
  const window = regexEvaluationWindowCharacters;
  if (text.length <= window) return collect(expression, text, rule, kind);
  const matches: GuardrailMatch[] = [];
  const step = Math.max(1, window - overlap);
  let acceptedUntil = 0;
  for (let offset = 0; offset < text.length; offset += step) {
    const last = offset + window >= text.length;
    for (const match of collect(expression, text.slice(offset, offset + window), rule, kind, offset)) {
      if (match.start < acceptedUntil) continue;
      if (!last && match.start >= offset + step) continue; // the next window sees it whole
      matches.push(match);
      acceptedUntil = match.end;
    }
    if (last) break;
  }
  return matches;
}

function escapeRegex(value: string): string {
  return value.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&");
}

/** The error of a blocking guardrail; it names the guardrail and never quotes the text. */
export function guardrailBlockedError(rule: { name: string; type: string }, stage: "input" | "output", kind?: string): GatewayError {
  return new GatewayError("guardrail_blocked", {
    message: `The guardrail '${rule.name}' blocked the ${stage === "input" ? "request" : "response"}.`,
    details: { guardrail: rule.name, type: rule.type, stage, ...(kind && kind !== rule.name ? { kind } : {}) },
  });
}

/** Redaction marker for a match. */
export function redactionMarker(kind: string): string {
  return `[REDACTED:${kind}]`;
}

/** All matches of the rules in a text, ordered by start (longer first on ties). */
export function findAllMatches(rules: readonly CompiledGuardrailRule[], text: string): GuardrailMatch[] {
  const matches: GuardrailMatch[] = [];
  for (const rule of rules) for (const match of rule.find(text)) matches.push(match);
  matches.sort((left, right) => left.start - right.start || right.end - left.end);
  return matches;
}


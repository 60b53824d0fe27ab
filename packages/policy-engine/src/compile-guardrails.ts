import type { GatewayError } from "@gateway/errors";
import {
  compileGuardrailRule,
  findAllMatches,
  guardrailBlockedError,
  redactionMarker,
  type CompiledGuardrailRule,
} from "./compiled-guardrail-rule.js";
import type { GuardrailsConfig } from "./guardrails-config.js";
import { createOutputScanner, type OutputScanner, type OutputScannerOptions } from "./create-output-scanner.js";

/** The outcome of a guardrail check. `value` is the (possibly redacted) text or texts. */
export interface GuardrailResult<T> {
  value: T;
  /** Names of the `flag` guardrails that matched (for the usage event). */
  flags: string[];
  /** Whether any text was redacted. */
  redacted: boolean;
  /** Set when a `block` guardrail matched: 403 `guardrail_blocked`; nothing else applies then. */
  blocked: GatewayError | null;
}

/** Guardrails compiled for repeated use. */
export interface CompiledGuardrails {
  hasInputRules: boolean;
  hasOutputRules: boolean;
  /** The default hold-back of {@link CompiledGuardrails.createOutputScanner}. */
  outputHoldbackCharacters: number;
  /** Checks the text segments of a request (size limits count all segments together). */
  checkInput(texts: readonly string[]): GuardrailResult<string[]>;
  /** Checks a complete (non-streamed) response text. */
  checkOutput(text: string): GuardrailResult<string>;
  /** A scanner for one streamed response. */
  createOutputScanner(options?: OutputScannerOptions): OutputScanner;
}

/** Guardrails that never match (no configuration). */
export const noGuardrails: CompiledGuardrails = compileGuardrails([]);

/**
 * Compiles one or several guardrails configurations (several: the rules of every policy that
 * applies to a caller, all enforced). Rule order decides which blocking rule is reported.
 */
export function compileGuardrails(config: GuardrailsConfig | readonly GuardrailsConfig[]): CompiledGuardrails {
  const configs = Array.isArray(config) ? (config as readonly GuardrailsConfig[]) : [config as GuardrailsConfig];
  const contentRules: CompiledGuardrailRule[] = [];
  const sizeRules: { name: string; type: "max_input_characters"; action: "block" | "flag"; limit: number }[] = [];
  let holdbackOverride: number | undefined;
  for (const item of configs) {
    if (item.outputHoldbackCharacters !== undefined) {
      holdbackOverride = Math.max(holdbackOverride ?? 0, item.outputHoldbackCharacters);
    }
    for (const rule of item.rules) {
      if (rule.type === "max_input_characters") sizeRules.push(rule);
      else contentRules.push(compileGuardrailRule(rule));
    }
  }
  const inputRules = contentRules.filter((rule) => rule.input);
  const outputRules = contentRules.filter((rule) => rule.output);
  const computedHoldback = outputRules.reduce((longest, rule) => Math.max(longest, rule.windowCharacters), 0);
  const outputHoldbackCharacters = holdbackOverride ?? computedHoldback;

  return {
    hasInputRules: inputRules.length > 0 || sizeRules.length > 0,
    hasOutputRules: outputRules.length > 0,
    outputHoldbackCharacters,
    checkInput(texts) {
      const flags = new Set<string>();
      if (sizeRules.length > 0) {
        let total = 0;
        for (const text of texts) total += text.length;
        for (const rule of sizeRules) {
          if (total <= rule.limit) continue;
          if (rule.action === "block") {
            return { value: [...texts], flags: [], redacted: false, blocked: guardrailBlockedError(rule, "input") };
          }
          flags.add(rule.name);
        }
      }
      const value: string[] = [];
      let redacted = false;
      for (const text of texts) {
        const result = applyRules(inputRules, text, "input", flags);
        if (result.blocked) return { value: [...texts], flags: [], redacted: false, blocked: result.blocked };
        if (result.text !== text) redacted = true;
        value.push(result.text);
      }
      return { value, flags: [...flags], redacted, blocked: null };
    },
    checkOutput(text) {
      const flags = new Set<string>();
      const result = applyRules(outputRules, text, "output", flags);
      if (result.blocked) return { value: text, flags: [], redacted: false, blocked: result.blocked };
      return { value: result.text, flags: [...flags], redacted: result.text !== text, blocked: null };
    },
    createOutputScanner(options = {}) {
      return createOutputScanner(outputRules, { holdbackCharacters: options.holdbackCharacters ?? outputHoldbackCharacters });
    },
  };
}

function applyRules(
  rules: readonly CompiledGuardrailRule[],
  text: string,
  stage: "input" | "output",
  flags: Set<string>,
): { text: string; blocked: GatewayError | null } {
  if (rules.length === 0 || text.length === 0) return { text, blocked: null };
  const matches = findAllMatches(rules, text);
  if (matches.length === 0) return { text, blocked: null };
  // Report the first blocking rule in configuration order.
  for (const rule of rules) {
    if (rule.action !== "block") continue;
    const match = matches.find((candidate) => candidate.rule === rule);
    if (match) return { text, blocked: guardrailBlockedError(rule, stage, match.kind) };
  }
  let output = "";
  let position = 0;
  for (const match of matches) {
    if (match.rule.action === "flag") {
      flags.add(match.rule.name);
      continue;
    }
    if (match.end <= position) continue;
    if (match.start >= position) output += text.slice(position, match.start) + redactionMarker(match.kind);
    position = match.end;
  }
  return { text: output + text.slice(position), blocked: null };
}

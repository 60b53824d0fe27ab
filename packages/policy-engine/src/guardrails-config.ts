import { fromZodError } from "@gateway/errors";
import { z } from "zod";
import { findUnsafeRegexConstruct } from "./find-unsafe-regex-construct.js";

/** What a guardrail does when it matches. */
export const guardrailActionSchema = z.enum(["block", "redact", "flag"]);

/** Built-in PII detectors. */
export const piiDetectorSchema = z.enum(["email", "phone", "payment_card", "iban", "us_ssn"]);
/** Built-in secret detectors. */
export const secretDetectorSchema = z.enum([
  "openai_api_key",
  "anthropic_api_key",
  "aws_access_key_id",
  "github_token",
  "slack_token",
  "gateway_api_key",
  "private_key",
]);

const guardrailName = z
  .string()
  .min(1)
  .max(64)
  .regex(/^[A-Za-z0-9._:-]+$/, "use letters, digits, '.', '_', ':' or '-'");
const appliesTo = z.enum(["input", "output", "both"]).default("both");

/** Allowed regular-expression flags (`g` and `u` are always added). */
const regexFlags = z.string().regex(/^(?!.*(.).*\1)[imsu]*$/, "use each of i, m, s, u at most once").default("");

const blockedTermsRule = z.strictObject({
  type: z.literal("blocked_terms"),
  name: guardrailName.default("blocked_terms"),
  action: guardrailActionSchema,
  appliesTo,
  terms: z.array(z.string().min(1).max(200)).min(1).max(1000),
  /** Match only whole words (letters, digits and `_` around the term do not count as a match). */
  wholeWord: z.boolean().default(true),
});

const regexRule = z
  .strictObject({
    type: z.literal("regex"),
    name: guardrailName,
    action: guardrailActionSchema,
    appliesTo,
    pattern: z.string().min(1).max(1000),
    flags: regexFlags,
    /** The longest match you expect; sets the overlap between evaluation windows and the stream hold-back. */
    maxMatchCharacters: z.number().int().min(1).max(1024).default(64),
  })
  .superRefine((rule, context) => {
    const unsafe = findUnsafeRegexConstruct(rule.pattern);
    if (unsafe) {
      context.addIssue({ code: "custom", path: ["pattern"], message: `Unsafe regular expression: ${unsafe}.` });
      return;
    }
    try {
      new RegExp(rule.pattern, `gu${rule.flags}`);
    } catch (error) {
      context.addIssue({ code: "custom", path: ["pattern"], message: `Invalid regular expression: ${(error as Error).message}` });
    }
  });

const piiRule = z.strictObject({
  type: z.literal("pii"),
  name: guardrailName.default("pii"),
  action: guardrailActionSchema,
  appliesTo,
  detectors: z.array(piiDetectorSchema).min(1).default([...piiDetectorSchema.options]),
});

const secretsRule = z.strictObject({
  type: z.literal("secrets"),
  name: guardrailName.default("secrets"),
  action: guardrailActionSchema,
  appliesTo,
  detectors: z.array(secretDetectorSchema).min(1).default([...secretDetectorSchema.options]),
});

const maxInputCharactersRule = z.strictObject({
  type: z.literal("max_input_characters"),
  name: guardrailName.default("max_input_characters"),
  action: z.enum(["block", "flag"]).default("block"),
  /** Total characters of all text segments of one request. */
  limit: z.number().int().min(1),
});

/** One guardrail rule (discriminated by `type`). */
export const guardrailRuleSchema = z.discriminatedUnion("type", [
  blockedTermsRule,
  regexRule,
  piiRule,
  secretsRule,
  maxInputCharactersRule,
]);

/**
 * The `guardrails` JSON of a policy. `null`/absent means no guardrails.
 *
 * ```json
 * { "rules": [
 *     { "type": "secrets", "action": "block" },
 *     { "type": "pii", "name": "pii-redact", "action": "redact", "detectors": ["email", "payment_card"] },
 *     { "type": "blocked_terms", "action": "flag", "terms": ["project falcon"] },
 *     { "type": "regex", "name": "ticket-id", "action": "redact", "pattern": "TICKET-[0-9]{4,8}" },
 *     { "type": "max_input_characters", "limit": 200000 }
 *   ],
 *   "outputHoldbackCharacters": 64 }
 * ```
 */
export const guardrailsConfigSchema = z.strictObject({
  rules: z.array(guardrailRuleSchema).max(100).default([]),
  /** Overrides the stream hold-back window (default: computed from the output rules). */
  outputHoldbackCharacters: z.number().int().min(0).max(4096).optional(),
});

/** A validated guardrails configuration (defaults applied). */
export type GuardrailsConfig = z.output<typeof guardrailsConfigSchema>;
/** The JSON a policy may hold (before defaults). */
export type GuardrailsConfigInput = z.input<typeof guardrailsConfigSchema>;
/** One validated rule. */
export type GuardrailRule = z.output<typeof guardrailRuleSchema>;
/** `block`, `redact` or `flag`. */
export type GuardrailAction = z.output<typeof guardrailActionSchema>;
/** A built-in PII detector name. */
export type PiiDetector = z.output<typeof piiDetectorSchema>;
/** A built-in secret detector name. */
export type SecretDetector = z.output<typeof secretDetectorSchema>;

/**
 * Validates a policy's `guardrails` JSON. Returns `null` for `null`/`undefined`; throws a
 * `GatewayError("invalid_request")` whose `param` starts with `guardrails` otherwise.
 */
export function parseGuardrailsConfig(value: unknown): GuardrailsConfig | null {
  if (value === null || value === undefined) return null;
  const result = guardrailsConfigSchema.safeParse(value);
  if (!result.success) throw fromZodError(result.error, { paramPrefix: ["guardrails"] });
  return result.data;
}

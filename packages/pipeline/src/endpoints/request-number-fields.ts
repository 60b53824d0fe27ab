import { fromZodError } from "@gateway/errors";
import { z } from "zod";

/**
 * The largest integer a count field of a request may hold (`max_tokens` and the other output
 * caps, `top_k`, `dimensions`, token ids, …): 2^31 - 1. Every provider's real limit is far below
 * it, and the gateway's own arithmetic (budget reservations, token rate limits) stays exact.
 */
export const maxRequestInteger = 2_147_483_647;

/**
 * Plain-comparison equivalents of the number schemas, tried first: the check runs on every chat
 * call, and a zod parse of one number costs about a microsecond. Zod runs only to describe a
 * failure (or for the schemas without an equivalent).
 */
const quickChecks = new WeakMap<z.ZodType, (value: unknown) => boolean>();

function withQuickCheck<Schema extends z.ZodType>(schema: Schema, accepts: (value: unknown) => boolean): Schema {
  quickChecks.set(schema, accepts);
  return schema;
}

/** An integer from `minimum` to `maximum` (at most {@link maxRequestInteger}). */
function integer(minimum: number, maximum = maxRequestInteger) {
  const error = `Expected an integer from ${minimum} to ${maximum}.`;
  return withQuickCheck(
    z.int({ error }).min(minimum, { error }).max(maximum, { error }),
    (value) => Number.isInteger(value) && (value as number) >= minimum && (value as number) <= maximum,
  );
}

/** An integer from `minimum` to {@link maxRequestInteger}. */
const count = (minimum: number) => integer(minimum);

/**
 * A signed 64-bit integer (OpenAI's `seed`): callers send random 64-bit seeds, which JSON.parse
 * reads as the nearest double; only values outside the int64 range or with a fraction are refused.
 */
function int64() {
  const error = "Expected an integer from -2^63 to 2^63 - 1.";
  // 2^63 - 1 itself parses as 2^63 (the nearest double), so 2^63 is let through.
  return z.number({ error }).refine((value) => Number.isInteger(value) && value >= -(2 ** 63) && value <= 2 ** 63, { error });
}

/** A number from `minimum` to `maximum` (`1e400` parses as Infinity, which is out of every range). */
function range(minimum: number, maximum: number) {
  const error = `Expected a number from ${minimum} to ${maximum}.`;
  return withQuickCheck(
    z.number({ error }).min(minimum, { error }).max(maximum, { error }),
    (value) => typeof value === "number" && value >= minimum && value <= maximum,
  );
}

/**
 * An object whose own entries (every key, `__proto__` included) are numbers passing `value`;
 * checked in place.
 */
function numberRecord(value: z.ZodNumber, jsonSchema: Record<string, unknown>) {
  return z
    .custom<Record<string, number>>((input) => typeof input === "object" && input !== null && !Array.isArray(input), { error: "Expected an object." })
    .check((context) => {
      for (const key of Object.keys(context.value)) {
        const result = value.safeParse(context.value[key]);
        if (!result.success) {
          for (const issue of result.error.issues) context.issues.push({ ...issue, path: [key], input: context.value[key], continue: true } as z.core.$ZodRawIssue);
        }
      }
    })
    .meta({ type: "object", additionalProperties: jsonSchema });
}

/** Number fields of a request body by name: the schema a present (non-null) value must pass. */
export type RequestNumberFields = Readonly<Record<string, z.ZodType>>;

/** `POST /v1/chat/completions` (ranges as OpenAI documents them). */
export const chatCompletionsNumberFields: RequestNumberFields = {
  max_tokens: count(1),
  max_completion_tokens: count(1),
  n: integer(1, 128),
  temperature: range(0, 2),
  top_p: range(0, 1),
  presence_penalty: range(-2, 2),
  frequency_penalty: range(-2, 2),
  seed: int64(),
  top_logprobs: integer(0, 20),
  logit_bias: numberRecord(range(-100, 100), { type: "number", minimum: -100, maximum: 100 }),
};

/** `POST /v1/messages` and `POST /v1/messages/count_tokens` (ranges as Anthropic documents them). */
export const messagesNumberFields: RequestNumberFields = {
  max_tokens: count(1),
  temperature: range(0, 1),
  top_p: range(0, 1),
  top_k: count(0),
  thinking: z.looseObject({ budget_tokens: count(1).nullish() }),
};

/** `POST /v1/responses` (ranges as OpenAI documents them). */
export const responsesNumberFields: RequestNumberFields = {
  max_output_tokens: count(1),
  max_tool_calls: count(0),
  temperature: range(0, 2),
  top_p: range(0, 1),
  top_logprobs: integer(0, 20),
};

/** `POST /v1/embeddings` (token ids of token-array inputs are checked with the input). */
export const embeddingsNumberFields: RequestNumberFields = {
  dimensions: count(1),
};

/** The number fields of every endpoint with number fields, by endpoint (also rendered in the OpenAPI document). */
export const requestNumberFields = Object.freeze({
  chatCompletions: chatCompletionsNumberFields,
  messages: messagesNumberFields,
  responses: responsesNumberFields,
  embeddings: embeddingsNumberFields,
});

/**
 * Checks the number fields of a request body against their bounds, reading own properties only
 * and without copying the body. `null` counts as absent (as the providers read it). Throws 400
 * `invalid_request` naming the field (`max_tokens`, `logit_bias.50256`) otherwise, so a number
 * beyond its domain never reaches the gateway's arithmetic or a provider.
 */
export function checkRequestNumberFields(body: Record<string, unknown>, fields: RequestNumberFields): void {
  let compiled = compiledFields.get(fields);
  if (compiled === undefined) {
    compiled = new Map(Object.entries(fields).map(([key, schema]) => [key, { schema, accepts: quickChecks.get(schema) }]));
    compiledFields.set(fields, compiled);
  }
  // One pass over the body's few keys (a lookup of each absent field would cost more).
  for (const key in body) {
    const field = compiled.get(key);
    if (field === undefined || !Object.hasOwn(body, key)) continue;
    const value = body[key];
    if (value === undefined || value === null || field.accepts?.(value) === true) continue;
    const result = field.schema.safeParse(value);
    if (!result.success) throw fromZodError(result.error, { paramPrefix: [key] });
  }
}

/** Each table as a map by field name, built once per table. */
const compiledFields = new WeakMap<RequestNumberFields, Map<string, { schema: z.ZodType; accepts: ((value: unknown) => boolean) | undefined }>>();

import { z } from "zod";
import { withJsonSchema } from "./with-json-schema.js";

/** What a {@link inPlaceRecordSchema} checks. */
export interface InPlaceRecordOptions<Value> {
  /** Names the record in messages: `choice criteria`. */
  what: string;
  /** Fewest and most entries; counted before any entry is looked at. */
  minimum?: number;
  maximum?: number;
  /** Whether an entry value is valid (a cheap check; or give `valueSchema`). */
  isValidValue?: (value: unknown) => value is Value;
  /** Message for an invalid entry value (with `isValidValue`). */
  valueMessage?: string;
  /** A schema every entry value must pass; its issues are reported under the entry's key. */
  valueSchema?: z.ZodType<Value>;
  /** A problem with a key (message), or undefined. Called once per key, in order. */
  checkKey?: () => (key: string) => string | undefined;
  /** JSON Schema of one entry value (for the JSON Schema export). */
  valueJsonSchema: Record<string, unknown>;
}

/**
 * A record (plain object) schema that validates its entries in place, in one pass, without
 * copying the object: zod's `z.record` rebuilds every record key by key, which dominates the cost
 * of the largest legal request (200 x 255 entries), and skips a `__proto__` key (it cannot set
 * one on the copy), so an entry named `__proto__` would go unchecked and vanish. Here every own
 * key is an entry like any other. Issues point at the entry (`[key]`). The output is the input
 * object itself.
 */
export function inPlaceRecordSchema<Value>(options: InPlaceRecordOptions<Value>) {
  const { what, minimum, maximum } = options;
  const schema = z
    .custom<Record<string, Value>>(isPlainObject, { error: `${what} must be an object.` })
    .check((context) => checkRecordEntries(context, options));
  return withJsonSchema(schema, {
    type: "object",
    additionalProperties: options.valueJsonSchema,
    ...(minimum === undefined ? {} : { minProperties: minimum }),
    ...(maximum === undefined ? {} : { maxProperties: maximum }),
  });
}

/**
 * Checks a plain object's entry count, keys and values in one pass, pushing non-aborting issues
 * with paths relative to the object. Exported for the score criteria, which dispatch between
 * levels and rubric themselves.
 */
export function checkRecordEntries<Value>(
  context: z.core.ParsePayload<Record<string, unknown>>,
  options: Omit<InPlaceRecordOptions<Value>, "valueJsonSchema">,
): void {
  const { what, minimum, maximum, isValidValue, valueMessage, valueSchema } = options;
  const record = context.value;
  const keys = Object.keys(record);
  if ((minimum !== undefined && keys.length < minimum) || (maximum !== undefined && keys.length > maximum)) {
    const tooSmall = minimum !== undefined && keys.length < minimum;
    context.issues.push({
      code: tooSmall ? "too_small" : "too_big",
      origin: "object",
      ...(tooSmall ? { minimum } : { maximum }),
      inclusive: true,
      input: record,
      message: `${what} must have ${minimum ?? 0} to ${maximum ?? "any number of"} entries (got ${keys.length}).`,
      continue: true,
    } as z.core.$ZodRawIssue);
    return;
  }
  const keyProblem = options.checkKey?.();
  for (const key of keys) {
    const problem = keyProblem?.(key);
    if (problem !== undefined) {
      context.issues.push({ code: "invalid_key", origin: "record", issues: [], input: key, path: [key], message: problem, continue: true } as z.core.$ZodRawIssue);
    }
    const value = record[key];
    if (isValidValue !== undefined && !isValidValue(value)) {
      context.issues.push({ code: "custom", input: value, path: [key], message: valueMessage ?? `Invalid ${what} entry.`, continue: true } as z.core.$ZodRawIssue);
    }
    if (valueSchema !== undefined) {
      const result = valueSchema.safeParse(value);
      if (!result.success) {
        for (const issue of result.error.issues) context.issues.push({ ...issue, path: [key, ...issue.path], continue: true } as z.core.$ZodRawIssue);
      }
    }
  }
}

/** A non-null object that is not an array. */
export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

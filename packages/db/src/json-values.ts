import { modelEndpointNames } from "@gateway/contracts";
import { z } from "zod";

/**
 * zod schemas for the Json columns. Rows can be written by hand (SQL, older releases), so
 * everything read from a Json column is parsed; a bad value fails with the table, row and column.
 */
export const stringArraySchema = z.array(z.string());
export const stringRecordSchema = z.record(z.string(), z.string());
export const modelPriceSchema = z.object({
  input: z.number().nonnegative(),
  output: z.number().nonnegative(),
  cacheRead: z.number().nonnegative().optional(),
  cacheWrite: z.number().nonnegative().optional(),
  maxOutputTokens: z.number().int().positive().optional(),
  contextWindow: z.number().int().positive().optional(),
});
export const modelPriceRecordSchema = z.record(z.string(), modelPriceSchema);
export const routeTargetsSchema = z.array(z.object({ model: z.string().min(1), weight: z.number().nonnegative() }));
export const numberArraySchema = z.array(z.number());

/** Longest upstream timeout a connection may set: one day. */
export const maxConnectionTimeoutMs = 86_400_000;
const timeoutMs = z.number().int().min(1).max(maxConnectionTimeoutMs);
/**
 * A connection's upstream timeouts (`ConnectionTimeouts` of `@gateway/contracts`), in
 * milliseconds: 1 to {@link maxConnectionTimeoutMs}; `maxDurationMs` may be 0 (no limit).
 * Shared by the stored column, the dashboard and the configuration file.
 */
export const connectionTimeoutsSchema = z.strictObject({
  connectMs: timeoutMs.optional(),
  totalMs: timeoutMs.optional(),
  firstByteMs: timeoutMs.optional(),
  idleMs: timeoutMs.optional(),
  maxDurationMs: z.number().int().min(0).max(maxConnectionTimeoutMs).optional(),
});
/** `default_max_tokens` of a connection: 1 to 1,000,000. */
export const connectionDefaultMaxTokensSchema = z.number().int().min(1).max(1_000_000);

/**
 * A connection's `modelEndpoints` (`Record<"<vendor>/<model>", ModelEndpoint[]>` of
 * `@gateway/contracts`): each model lists 1 to 3 distinct endpoints of `chat`, `responses`,
 * `embeddings`. Shared by the stored column, the dashboard and the configuration file.
 */
export const modelEndpointsSchema = z.record(
  z.string().min(1),
  z
    .array(z.enum(modelEndpointNames))
    .min(1)
    .refine((endpoints) => new Set(endpoints).size === endpoints.length, "endpoints must not repeat"),
);

/**
 * A connection's provider settings as stored: a JSON object (the provider's settings schema
 * checks its fields where a connection is written, the dashboard and the configuration file).
 */
export const connectionSettingsSchema = z.record(z.string(), z.unknown());

/** Parses a Json column value, throwing an Error that names where the bad value is. */
export function parseJsonColumn<T>(schema: z.ZodType<T>, value: unknown, where: string): T {
  const parsed = schema.safeParse(value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new Error(`invalid stored JSON in ${where}: ${issue ? `${issue.path.join(".") || "(root)"}: ${issue.message}` : "does not match"}`);
  }
  return parsed.data;
}

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

/** Parses a Json column value, throwing an Error that names where the bad value is. */
export function parseJsonColumn<T>(schema: z.ZodType<T>, value: unknown, where: string): T {
  const parsed = schema.safeParse(value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new Error(`invalid stored JSON in ${where}: ${issue ? `${issue.path.join(".") || "(root)"}: ${issue.message}` : "does not match"}`);
  }
  return parsed.data;
}

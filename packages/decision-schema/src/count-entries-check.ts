import type { z } from "zod";

/** The context zod passes to a `.check()` callback. */
type CheckContext = z.core.ParsePayload<Record<string, unknown>>;

/**
 * A zod check that an object has between `minimum` and `maximum` own keys. The issue is
 * non-aborting (`continue: true`) so that a union around the object reports it directly
 * instead of a bare "Invalid input".
 */
export function countEntriesCheck(options: { minimum: number; maximum: number; what: string }) {
  const { minimum, maximum, what } = options;
  return (context: CheckContext): void => {
    const count = countKeys(context.value, maximum + 1);
    if (count < minimum || count > maximum) {
      context.issues.push({
        code: count < minimum ? "too_small" : "too_big",
        origin: "object",
        ...(count < minimum ? { minimum } : { maximum }),
        inclusive: true,
        input: context.value,
        message: `${what} must have ${minimum} to ${maximum} entries (got ${count > maximum ? `more than ${maximum}` : count}).`,
        continue: true,
      } as z.core.$ZodRawIssue);
    }
  };
}

/** Counts own enumerable keys, stopping once `stopAt` is reached. */
export function countKeys(value: Record<string, unknown>, stopAt: number): number {
  let count = 0;
  for (const key in value) {
    if (!Object.hasOwn(value, key)) continue;
    count += 1;
    if (count >= stopAt) break;
  }
  return count;
}

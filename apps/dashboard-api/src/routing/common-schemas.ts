import { z } from "zod";

/** A resource id in a path (cuid-like; anything else cannot exist and answers 404). */
export const resourceId = z.string().min(1).max(64).regex(/^[A-Za-z0-9_-]+$/);

/** Path parameters `{ <name>: id }`. */
export function idParams<Name extends string>(name: Name) {
  return z.object({ [name]: resourceId } as Record<Name, typeof resourceId>);
}

/** An ISO 8601 UTC timestamp string (`2025-01-31T12:00:00.000Z`). */
export const timestamp = z.string().describe("ISO 8601 UTC timestamp");

/** Renders a date as the dashboard's timestamp format (ISO 8601, UTC, milliseconds). */
export function iso(date: Date): string;
export function iso(date: Date | null | undefined): string | null;
export function iso(date: Date | null | undefined): string | null {
  return date ? date.toISOString() : null;
}

/** The `{deleted: true}` answer of DELETE on configuration resources. */
export function deletedObjectSchema(object: string) {
  return z.object({ id: z.string(), object: z.literal(object), deleted: z.literal(true) });
}

/** A name of a configuration object. */
export const displayName = z.string().trim().min(1).max(200);

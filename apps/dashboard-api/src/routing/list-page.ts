import { decodeTimeCursor, encodeTimeCursor, type Page, type TimeCursor } from "@gateway/db";
import { z } from "zod";

/** Query fields of every paginated list: `limit` (1-100, default 50) and the opaque `cursor`. */
export const paginationQueryShape = {
  limit: z.coerce.number().int().min(1).max(100).default(50).describe("Page size (1-100, default 50)."),
  cursor: z.string().min(1).max(300).optional().describe("The `next_cursor` of the previous page."),
};

/** The `list` object: `{object:"list", data, has_more, next_cursor}`. */
export function listObjectSchema<Item extends z.ZodType>(item: Item) {
  return z.object({
    object: z.literal("list"),
    data: z.array(item),
    has_more: z.boolean(),
    next_cursor: z.string().nullable(),
  });
}

/** A decoded cursor: the sort key and id of the last row of the previous page. */
export type ListCursor = TimeCursor;

/** Encodes a cursor (opaque to clients; the format `@gateway/db`'s paginated lists use). */
export const encodeCursor: (cursor: ListCursor) => string = encodeTimeCursor;

/** Decodes a cursor; a malformed one is 400 `invalid_request` (param `cursor`). */
export function decodeCursor(value: string): ListCursor {
  return decodeTimeCursor(value, "cursor");
}

/** Renders a page of a `@gateway/db` list as the list object. */
export function pageOf<Row, Item>(page: Page<Row>, present: (row: Row) => Item): { object: "list"; data: Item[]; has_more: boolean; next_cursor: string | null } {
  return { object: "list", data: page.data.map(present), has_more: page.nextCursor !== null, next_cursor: page.nextCursor };
}

/** Turns `limit + 1` rows into one page of the list object. */
export function toListPage<Row extends { id: string }, Item>(
  rows: Row[],
  limit: number,
  field: keyof Row,
  present: (row: Row) => Item,
): { object: "list"; data: Item[]; has_more: boolean; next_cursor: string | null } {
  const hasMore = rows.length > limit;
  const page = hasMore ? rows.slice(0, limit) : rows;
  const last = page[page.length - 1];
  return {
    object: "list",
    data: page.map(present),
    has_more: hasMore,
    next_cursor: hasMore && last ? encodeCursor({ at: last[field] as unknown as Date, id: last.id }) : null,
  };
}

/** The list object for small, unpaginated collections. */
export function fullList<Item>(data: Item[]): { object: "list"; data: Item[]; has_more: false; next_cursor: null } {
  return { object: "list", data, has_more: false, next_cursor: null };
}

import { GatewayError } from "@gateway/errors";
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
export interface ListCursor {
  at: Date;
  id: string;
}

/** Encodes a cursor (opaque to clients). */
export function encodeCursor(cursor: ListCursor): string {
  return Buffer.from(JSON.stringify([cursor.at.toISOString(), cursor.id])).toString("base64url");
}

/** Decodes a cursor; a malformed one is 400 `invalid_request` (param `cursor`). */
export function decodeCursor(value: string): ListCursor {
  try {
    const parsed = JSON.parse(Buffer.from(value, "base64url").toString("utf8")) as unknown;
    if (Array.isArray(parsed) && parsed.length === 2 && typeof parsed[0] === "string" && typeof parsed[1] === "string") {
      const at = new Date(parsed[0]);
      if (!Number.isNaN(at.getTime())) return { at, id: parsed[1] };
    }
  } catch {
    // fall through
  }
  throw new GatewayError("invalid_request", { message: "The cursor is not valid.", param: "cursor" });
}

/**
 * The Prisma `where` part that continues after a cursor, for lists ordered by
 * `[field desc, id desc]`.
 */
export function afterCursorWhere(cursor: string | undefined, field: string): Record<string, unknown> {
  if (cursor === undefined) return {};
  const { at, id } = decodeCursor(cursor);
  return { OR: [{ [field]: { lt: at } }, { [field]: at, id: { lt: id } }] };
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

import { GatewayError } from "@gateway/errors";
import type { DatabaseClient, GatewayPrismaClient } from "./create-database.js";
import { assertOneOf } from "./enums.js";

/** Prisma error code of a unique-constraint violation. */
const UNIQUE_VIOLATION = "P2002";
/** Prisma error code of "record to update/delete not found". */
const RECORD_NOT_FOUND = "P2025";
/** Prisma error code of a foreign-key violation. */
const FOREIGN_KEY_VIOLATION = "P2003";

function prismaCode(error: unknown): string | undefined {
  return typeof error === "object" && error !== null && "code" in error ? String((error as { code: unknown }).code) : undefined;
}

/** True for a unique-constraint violation (duplicate email, key hash, alias...). */
export function isUniqueViolation(error: unknown): boolean {
  return prismaCode(error) === UNIQUE_VIOLATION;
}

/** True when an update/delete matched no row. */
export function isRecordNotFound(error: unknown): boolean {
  return prismaCode(error) === RECORD_NOT_FOUND;
}

/**
 * Runs a write and translates database errors into `GatewayError`s the apps can render:
 * duplicates -> 409 `conflict`, missing row -> 404 `not_found`, dangling reference -> 400.
 */
export async function translateWrite<T>(what: string, write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (error) {
    const code = prismaCode(error);
    if (code === UNIQUE_VIOLATION) throw new GatewayError("conflict", { message: `${what} already exists`, cause: error });
    if (code === RECORD_NOT_FOUND) throw new GatewayError("not_found", { message: `${what} not found`, cause: error });
    if (code === FOREIGN_KEY_VIOLATION) {
      throw new GatewayError("invalid_request", { message: `${what} refers to something that does not exist`, cause: error });
    }
    throw error;
  }
}

/** `assertOneOf` that throws a 400 `invalid_request` naming the parameter. */
export function requireOneOf<const T extends readonly string[]>(allowed: T, value: string, param: string): T[number] {
  try {
    return assertOneOf(allowed, value, param);
  } catch {
    throw new GatewayError("invalid_request", { message: `${param} must be one of ${allowed.join(", ")}`, param });
  }
}

/** A page of results with an opaque cursor for the next page (null at the end). */
export interface Page<T> {
  data: T[];
  nextCursor: string | null;
}

/** Cursor over (timestamp desc, id desc). */
export interface TimeCursor {
  at: Date;
  id: string;
}

/** Encodes an opaque cursor: the sort time and id of the last row of a page. */
export function encodeTimeCursor(cursor: TimeCursor): string {
  return Buffer.from(JSON.stringify([cursor.at.toISOString(), cursor.id])).toString("base64url");
}

/** Decodes a cursor of `encodeTimeCursor`; anything else is 400 `invalid_request` naming `param`. */
export function decodeTimeCursor(cursor: string, param = "cursor"): TimeCursor {
  try {
    const parsed = JSON.parse(Buffer.from(cursor, "base64url").toString("utf8")) as unknown;
    if (Array.isArray(parsed) && parsed.length === 2 && typeof parsed[0] === "string" && typeof parsed[1] === "string") {
      const date = new Date(parsed[0]);
      if (!Number.isNaN(date.getTime())) return { at: date, id: parsed[1] };
    }
  } catch {
    // fall through
  }
  throw new GatewayError("invalid_request", { message: "The cursor is not valid.", param });
}

/** Prisma `where` for rows strictly after `cursor` in (field desc, id desc) order. */
export function afterTimeCursor<F extends string>(field: F, cursor: TimeCursor) {
  return { OR: [{ [field]: { lt: cursor.at } }, { [field]: cursor.at, id: { lt: cursor.id } }] } as Record<string, unknown>;
}

/** Clamps a page size to 1..maximum (default 50). */
export function pageSize(limit: number | undefined, maximum = 200): number {
  if (limit === undefined || !Number.isFinite(limit)) return 50;
  return Math.min(maximum, Math.max(1, Math.floor(limit)));
}

/** Builds a page from `limit + 1` fetched rows. */
export function toPage<T>(rows: T[], limit: number, cursorOf: (row: T) => TimeCursor): Page<T> {
  const hasMore = rows.length > limit;
  const data = hasMore ? rows.slice(0, limit) : rows;
  const last = data[data.length - 1];
  return { data, nextCursor: hasMore && last !== undefined ? encodeTimeCursor(cursorOf(last)) : null };
}

/** Lower-cased, trimmed email used for case-insensitive uniqueness. */
export function normalizeEmail(email: string): string {
  return email.trim().toLowerCase();
}

/** Options of {@link runInTransaction}. */
export interface RunInTransactionOptions {
  /** Longest the transaction may stay open, in ms (Prisma's default is 5 s). Default 60 000. */
  timeoutMs?: number;
}

/**
 * Runs `work` in one database transaction (Prisma's interactive transaction, on SQLite and
 * PostgreSQL alike): every repository call made with the `DatabaseClient` it receives is
 * committed together, or, when `work` throws, none is. Called with a client that is already a
 * transaction's, `work` simply joins it.
 */
export async function runInTransaction<T>(
  db: DatabaseClient,
  work: (transaction: DatabaseClient) => Promise<T>,
  options: RunInTransactionOptions = {},
): Promise<T> {
  if (typeof (db.prisma as { $transaction?: unknown }).$transaction !== "function") return work(db);
  const timeout = options.timeoutMs ?? 60_000;
  return db.prisma.$transaction((prisma) => work({ prisma: prisma as unknown as GatewayPrismaClient, provider: db.provider }), {
    timeout,
    maxWait: timeout,
  });
}

/**
 * Whether a stored row already holds every value of `data` (the columns an upsert would
 * write). JSON values are compared by content (key order aside), BigInt and number by value,
 * dates by instant. An upsert that finds its row unchanged writes nothing, so it neither touches
 * `updated_at` nor bumps the control-plane version (every gateway would reload its snapshot).
 */
export function holdsValues(row: Record<string, unknown>, data: Record<string, unknown>): boolean {
  for (const [field, value] of Object.entries(data)) {
    if (value === undefined) continue;
    if (canonicalValue(row[field]) !== canonicalValue(value)) return false;
  }
  return true;
}

/** Integers (number or BigInt, as the drivers return BIGINT columns) as one tagged object, so 5 and 5n compare equal. */
function canonicalValue(value: unknown): string {
  return JSON.stringify(value ?? null, (_key, item: unknown) => {
    if (typeof item === "bigint" || (typeof item === "number" && Number.isInteger(item))) return { "\u0000integer": String(item) };
    if (item !== null && typeof item === "object" && !Array.isArray(item) && !(item instanceof Date)) {
      const sorted: Record<string, unknown> = {};
      for (const key of Object.keys(item).sort()) {
        const entry = (item as Record<string, unknown>)[key];
        if (entry !== undefined) sorted[key] = entry;
      }
      return sorted;
    }
    return item;
  });
}

import type { DatabaseProvider } from "./database-url.js";
import type { StatementQuery, StatementRunner } from "./statement-runner.js";

/**
 * What the data-plane functions need: the SQL dialect and the raw driver, no Prisma. Both
 * `createDatabase` (the full client, with Prisma) and `openDataPlaneDatabase` (`@gateway/db/data-plane`,
 * without) provide it, so the gateway's hot and background paths run the same code either way.
 */
export interface SqlClient {
  readonly provider: DatabaseProvider;
  /** Runs statements in ONE transaction on the raw driver. */
  readonly runStatements: StatementRunner;
  /** Runs one statement on the raw driver and returns its rows (column name -> value). */
  readonly queryStatement: StatementQuery;
}

// Column values as the raw drivers return them. Prisma's storage on SQLite (libSQL adapter):
// Boolean as INTEGER 0/1, DateTime as ISO-8601 TEXT, Json as TEXT, BigInt as INTEGER. On
// PostgreSQL the `pg` driver returns booleans, jsonb already parsed, int8 as a string and
// `timestamp(3)` (UTC wall time) as a Date (the statement query parses it as UTC).

/** A BOOLEAN column (SQLite stores 0/1). */
export function sqlBoolean(value: unknown): boolean {
  if (typeof value === "boolean") return value;
  if (typeof value === "number" || typeof value === "bigint") return value !== 0 && value !== 0n;
  if (typeof value === "string") return value === "1" || value.toLowerCase() === "true";
  return false;
}

/** A nullable BOOLEAN column. */
export function sqlNullableBoolean(value: unknown): boolean | null {
  return value === null || value === undefined ? null : sqlBoolean(value);
}

/** A nullable DateTime column. */
export function sqlDate(value: unknown): Date | null {
  if (value === null || value === undefined) return null;
  if (value instanceof Date) return value;
  if (typeof value === "number" || typeof value === "bigint") return new Date(Number(value));
  return new Date(String(value));
}

/** A Json column (SQLite keeps the text; PostgreSQL's driver parses jsonb). */
export function sqlJson(value: unknown): unknown {
  return typeof value === "string" ? (JSON.parse(value) as unknown) : value;
}

/** An INTEGER/BIGINT column as a number (int8 arrives as a string from `pg`). */
export function sqlNumber(value: unknown): number {
  return typeof value === "number" ? value : Number(value);
}

/** A nullable INTEGER column. */
export function sqlNullableNumber(value: unknown): number | null {
  return value === null || value === undefined ? null : sqlNumber(value);
}

/** A nullable TEXT column. */
export function sqlNullableString(value: unknown): string | null {
  return value === null || value === undefined ? null : String(value);
}

/** The placeholder of the `position`-th (1-based) parameter: `?` on SQLite, `$n` on PostgreSQL. */
export function sqlPlaceholder(provider: DatabaseProvider, position: number): string {
  return provider === "postgresql" ? `$${position}` : "?";
}

/**
 * A timestamp parameter as Prisma stores it: SQLite (libSQL adapter) keeps ISO-8601 text with
 * "+00:00"; PostgreSQL `timestamp(3)` holds UTC wall time (a Date would be sent in the local zone).
 */
export function sqlTimestamp(provider: DatabaseProvider, value: Date): string {
  const iso = value.toISOString();
  return provider === "sqlite" ? iso.replace("Z", "+00:00") : iso.slice(0, -1);
}

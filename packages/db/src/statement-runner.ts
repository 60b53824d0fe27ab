import { createClient, type Client as LibSqlClient, type InValue } from "@libsql/client";
import pg from "pg";

/** One parameterised SQL statement (`?` placeholders on SQLite, `$n` on PostgreSQL). */
export interface SqlStatement {
  sql: string;
  args: unknown[];
}

/** Runs statements in ONE transaction on the raw driver (the bulk path; bypasses Prisma's per-row cost). */
export type StatementRunner = (statements: SqlStatement[]) => Promise<void>;

/** Runs one read-only statement on the raw driver and returns its rows (column name -> value). */
export type StatementQuery = (statement: SqlStatement) => Promise<Record<string, unknown>[]>;

/** A runner plus its cleanup. */
export interface ClosableStatementRunner {
  run: StatementRunner;
  query: StatementQuery;
  close(): Promise<void>;
}

function isSqliteBusy(error: unknown): boolean {
  const code = typeof error === "object" && error !== null ? String((error as { code?: unknown }).code ?? "") : "";
  return code.startsWith("SQLITE_BUSY") || code.startsWith("SQLITE_LOCKED");
}

/**
 * SQLite: its own libSQL connection WITHOUT a busy timeout. `batch(..., "write")` runs
 * BEGIN IMMEDIATE..COMMIT synchronously, so it never holds the lock across an await (no
 * in-process deadlock with Prisma's connection); when another writer holds the lock it retries
 * asynchronously for up to `busyTimeoutMs`.
 */
export function createSqliteStatementRunner(url: string, busyTimeoutMs: number): ClosableStatementRunner {
  let client: LibSqlClient | null = null;
  return {
    async run(statements) {
      if (statements.length === 0) return;
      client ??= createClient({ url });
      const deadline = Date.now() + busyTimeoutMs;
      for (let attempt = 0; ; attempt += 1) {
        try {
          await client.batch(statements.map((statement) => ({ sql: statement.sql, args: statement.args as InValue[] })), "write");
          return;
        } catch (error) {
          const cause = (error as { cause?: unknown }).cause;
          if (!(isSqliteBusy(error) || isSqliteBusy(cause)) || Date.now() > deadline) throw error;
          await new Promise((resolve) => setTimeout(resolve, Math.min(100, 2 * 2 ** attempt) + Math.random() * 5));
        }
      }
    },
    async query(statement) {
      client ??= createClient({ url });
      const deadline = Date.now() + busyTimeoutMs;
      for (let attempt = 0; ; attempt += 1) {
        try {
          const result = await client.execute({ sql: statement.sql, args: statement.args as InValue[] });
          return result.rows.map((row) => Object.fromEntries(result.columns.map((column, index) => [column, row[index]])));
        } catch (error) {
          const cause = (error as { cause?: unknown }).cause;
          if (!(isSqliteBusy(error) || isSqliteBusy(cause)) || Date.now() > deadline) throw error;
          await new Promise((resolve) => setTimeout(resolve, Math.min(100, 2 * 2 ** attempt) + Math.random() * 5));
        }
      }
    },
    async close() {
      client?.close();
      client = null;
    },
  };
}

/** `timestamp` (without time zone, OID 1114): Prisma stores UTC wall time there; `pg` alone would read it as local time. */
const TIMESTAMP_OID = 1114;
const rawTypes = {
  getTypeParser: ((oid: number, format?: string) =>
    oid === TIMESTAMP_OID
      ? (value: string) => new Date(`${value.replace(" ", "T")}Z`)
      : pg.types.getTypeParser(oid, format as "text")) as typeof pg.types.getTypeParser,
};

/** PostgreSQL: one read on the shared pool (timestamps read as UTC, as Prisma writes them). */
export function createPostgresqlStatementQuery(pool: pg.Pool): StatementQuery {
  return async (statement) => (await pool.query({ text: statement.sql, values: statement.args, types: rawTypes })).rows as Record<string, unknown>[];
}

/** PostgreSQL: a client of the shared pool, BEGIN..COMMIT around the statements. */
export function createPostgresqlStatementRunner(pool: pg.Pool): StatementRunner {
  return async (statements) => {
    if (statements.length === 0) return;
    const client = await pool.connect();
    try {
      await client.query("BEGIN");
      for (const statement of statements) await client.query(statement.sql, statement.args);
      await client.query("COMMIT");
      client.release();
    } catch (error) {
      await client.query("ROLLBACK").catch(() => undefined);
      client.release(error instanceof Error ? error : undefined);
      throw error;
    }
  };
}

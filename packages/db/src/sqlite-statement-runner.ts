import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";
import type { ClosableStatementRunner } from "./statement-runner.js";

// The `libsql` driver is CommonJS; its Database class is what `@libsql/client` uses for `file:` URLs.
const LibSqlDatabase = createRequire(import.meta.url)("libsql") as new (path: string, options: { timeout: number }) => unknown;

function isSqliteBusy(error: unknown): boolean {
  const code = typeof error === "object" && error !== null ? String((error as { code?: unknown }).code ?? "") : "";
  return code.startsWith("SQLITE_BUSY") || code.startsWith("SQLITE_LOCKED");
}

/**
 * SQLite: one long-lived connection on the `libsql` driver (the engine under `@libsql/client`)
 * WITHOUT a busy timeout, with each distinct SQL text prepared once and reused (`@libsql/client`
 * prepares every statement again and reopens its connection after every transaction). A batch
 * runs BEGIN IMMEDIATE..COMMIT synchronously, so it never holds the lock across an await (no
 * in-process deadlock with Prisma's connection); when another writer holds the lock it rolls
 * back and retries asynchronously for up to `busyTimeoutMs`. Column values come back as
 * `@libsql/client` returns them with `intMode: "number"` (integers beyond 2^53 stay bigint).
 */
export function createSqliteStatementRunner(url: string, busyTimeoutMs: number): ClosableStatementRunner {
  let connection: LibSqlConnection | null = null;
  const open = (): LibSqlConnection => (connection ??= openLibSqlConnection(url));
  const withBusyRetry = async <T>(operation: () => T): Promise<T> => {
    const deadline = Date.now() + busyTimeoutMs;
    for (let attempt = 0; ; attempt += 1) {
      try {
        return operation();
      } catch (error) {
        if (!isSqliteBusy(error) || Date.now() > deadline) throw error;
        await new Promise((resolve) => setTimeout(resolve, Math.min(100, 2 * 2 ** attempt) + Math.random() * 5));
      }
    }
  };
  return {
    async run(statements) {
      if (statements.length === 0) return;
      const db = open();
      await withBusyRetry(() => {
        db.begin();
        try {
          for (const statement of statements) db.statement(statement.sql).run(statement.args.map(toSqliteValue));
          db.commit();
        } catch (error) {
          db.rollback();
          throw error;
        }
      });
    },
    async query(statement) {
      const db = open();
      return withBusyRetry(() => {
        const prepared = db.statement(statement.sql);
        const columns = prepared.columns().map((column) => column.name);
        const rows = prepared.raw(true).all(statement.args.map(toSqliteValue)) as unknown[][];
        return rows.map((row) => {
          const record: Record<string, unknown> = {};
          for (let index = 0; index < columns.length; index += 1) record[columns[index]!] = fromSqliteValue(row[index]);
          return record;
        });
      });
    },
    async close() {
      connection?.close();
      connection = null;
    },
  };
}

/** The part of the `libsql` driver's prepared statement the runner uses. */
interface LibSqlStatement {
  run(parameters: unknown[]): unknown;
  raw(toggle: boolean): LibSqlStatement;
  safeIntegers(toggle: boolean): LibSqlStatement;
  all(parameters: unknown[]): unknown[];
  columns(): { name: string }[];
}

interface LibSqlConnection {
  statement(sql: string): LibSqlStatement;
  begin(): void;
  commit(): void;
  rollback(): void;
  close(): void;
}

/** Prepared statements kept per connection (the usage writer and the snapshot use a handful). */
const STATEMENT_CACHE_SIZE = 64;

function openLibSqlConnection(url: string): LibSqlConnection {
  const path = url === "file::memory:" || url === ":memory:" ? ":memory:" : url.startsWith("file://") ? fileURLToPath(url) : url.replace(/^file:/, "");
  // `timeout: 0`: never wait synchronously for another writer's lock (the runner retries asynchronously).
  const db = new LibSqlDatabase(path, { timeout: 0 }) as {
    prepare(sql: string): LibSqlStatement;
    exec(sql: string): void;
    close(): void;
  };
  const cache = new Map<string, LibSqlStatement>();
  let inTransaction = false;
  return {
    statement(sql) {
      let prepared = cache.get(sql);
      if (prepared === undefined) {
        if (cache.size >= STATEMENT_CACHE_SIZE) cache.clear();
        prepared = db.prepare(sql).safeIntegers(true);
        cache.set(sql, prepared);
      }
      return prepared;
    },
    begin() {
      db.exec("BEGIN IMMEDIATE");
      inTransaction = true;
    },
    commit() {
      db.exec("COMMIT");
      inTransaction = false;
    },
    rollback() {
      if (!inTransaction) return;
      inTransaction = false;
      try {
        db.exec("ROLLBACK");
      } catch {
        // SQLite already rolled back (e.g. after SQLITE_BUSY on COMMIT's lock upgrade)
      }
    },
    close() {
      cache.clear();
      db.close();
    },
  };
}

/** A parameter as the driver binds it (as `@libsql/client` converts it). */
function toSqliteValue(value: unknown): unknown {
  if (typeof value === "boolean") return value ? 1 : 0;
  if (value instanceof Date) return value.valueOf();
  if (value === undefined) throw new TypeError("undefined cannot be passed as a SQL parameter");
  if (typeof value === "number" && !Number.isFinite(value)) throw new RangeError("only finite numbers can be passed as SQL parameters");
  return value;
}

/** A column value: integers as numbers when exact, else bigint; blobs as ArrayBuffer. */
function fromSqliteValue(value: unknown): unknown {
  if (typeof value === "bigint") return value >= Number.MIN_SAFE_INTEGER && value <= Number.MAX_SAFE_INTEGER ? Number(value) : value;
  if (value instanceof Buffer) return value.buffer.slice(value.byteOffset, value.byteOffset + value.byteLength);
  return value;
}

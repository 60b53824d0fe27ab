import pg from "pg";

/** One parameterised SQL statement (`?` placeholders on SQLite, `$n` on PostgreSQL). */
export interface SqlStatement {
  sql: string;
  args: unknown[];
  /**
   * PostgreSQL settings of a query alone (`SET LOCAL` in a transaction around it), e.g.
   * `{ jit: "off" }` for a large aggregation whose JIT compilation costs more than it saves.
   * SQLite ignores them.
   */
  settings?: Readonly<Record<string, string>>;
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

// The SQLite runner lives in its own module (the usage writer thread loads it without `pg`).
export { createSqliteStatementRunner } from "./sqlite-statement-runner.js";

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
  return async (statement) => {
    if (statement.settings === undefined) return (await pool.query({ text: statement.sql, values: statement.args, types: rawTypes })).rows as Record<string, unknown>[];
    const settings = statement.settings;
    let rows: Record<string, unknown>[] = [];
    await inTransaction(pool, async (client) => {
      for (const [name, value] of Object.entries(settings)) await client.query("SELECT set_config($1, $2, true)", [name, value]);
      rows = (await client.query({ text: statement.sql, values: statement.args, types: rawTypes })).rows as Record<string, unknown>[];
    });
    return rows;
  };
}

/**
 * PostgreSQL: a client of the shared pool, BEGIN..COMMIT around the statements. While it is
 * checked out the client's `error` event is ours to handle (the pool listens only to idle
 * clients): a connection lost mid-transaction fails the call, never the process.
 */
export function createPostgresqlStatementRunner(pool: pg.Pool): StatementRunner {
  return async (statements) => {
    if (statements.length === 0) return;
    await inTransaction(pool, async (client) => {
      for (const statement of statements) await client.query(statement.sql, statement.args);
    });
  };
}

/** `work` on a client of the pool between BEGIN and COMMIT (ROLLBACK when it throws). */
async function inTransaction(pool: pg.Pool, work: (client: pg.PoolClient) => Promise<void>): Promise<void> {
  const client = await pool.connect();
  let lost: Error | undefined;
  const onLost = (error: Error) => void (lost = error);
  client.on("error", onLost);
  try {
    await client.query("BEGIN");
    await work(client);
    await client.query("COMMIT");
    client.off("error", onLost);
    client.release(lost);
  } catch (error) {
    if (lost === undefined) await client.query("ROLLBACK").catch(() => undefined);
    client.off("error", onLost);
    client.release(lost ?? (error instanceof Error ? error : undefined));
    throw error;
  }
}

import pg from "pg";
import { resolveDatabaseUrl, type DatabaseProvider, type ResolvedDatabaseUrl } from "./database-url.js";
import { migrateDatabase, type MigrationResult } from "./migrate-database.js";
import { prepareSqliteFile } from "./prepare-sqlite-file.js";
import type { SqlClient } from "./sql-client.js";
import {
  createPostgresqlStatementQuery,
  createPostgresqlStatementRunner,
  createSqliteStatementRunner,
  type StatementQuery,
  type StatementRunner,
} from "./statement-runner.js";
import { rememberListenConnection } from "./subscribe-control-plane-changes.js";

/** Options of {@link openDataPlaneDatabase}. */
export interface OpenDataPlaneDatabaseOptions {
  /** `DATABASE_URL`; unset -> SQLite `<dataDirectory>/gateway.db`. */
  url?: string;
  /** Directory of the embedded default (created when missing). Default `./data`. */
  dataDirectory?: string;
  /** How long a SQLite write waits for another writer's lock, in ms (retried asynchronously). Default 30000. */
  sqliteBusyTimeoutMs?: number;
  /** PostgreSQL pool size. Default 10. */
  postgresqlPoolSize?: number;
}

/** A database opened for the data plane: the raw driver only, no Prisma. */
export interface DataPlaneDatabase extends SqlClient {
  /** The URL it was opened with (`file:` URL for SQLite; for PostgreSQL the password is masked). */
  readonly displayUrl: string;
  /** Applies the committed migrations of this provider (see `migrateDatabase`). */
  migrate(): Promise<MigrationResult>;
  /** Closes the connections. */
  close(): Promise<void>;
}

/** The raw connections behind a database (shared by `createDatabase`, which adds Prisma on the same PostgreSQL pool). */
export interface SqlConnections {
  provider: DatabaseProvider;
  displayUrl: string;
  runStatements: StatementRunner;
  queryStatement: StatementQuery;
  /** The PostgreSQL pool (null on SQLite). */
  pool: pg.Pool | null;
  /** The PostgreSQL schema (null on SQLite). */
  schema: string | null;
  migrate(): Promise<MigrationResult>;
  close(): Promise<void>;
}

/** Opens the raw driver connections for a resolved URL (internal). */
export function openSqlConnections(
  resolved: ResolvedDatabaseUrl,
  options: { sqliteBusyTimeoutMs?: number; postgresqlPoolSize?: number } = {},
): SqlConnections {
  if (resolved.provider === "sqlite") {
    if (resolved.filePath !== null) prepareSqliteFile(resolved.filePath);
    const statements = createSqliteStatementRunner(resolved.url, Math.max(options.sqliteBusyTimeoutMs ?? 30_000, 30_000));
    return {
      provider: "sqlite",
      displayUrl: resolved.url,
      runStatements: statements.run,
      queryStatement: statements.query,
      pool: null,
      schema: null,
      migrate: () => migrateDatabase({ url: resolved.url, provider: "sqlite" }),
      close: () => statements.close(),
    };
  }
  const schema = resolved.schema ?? "public";
  // Raw SQL must see the same schema as Prisma's query compiler. JIT off: over the day partitions
  // of usage_events a 30-day aggregate crosses jit_above_cost and compiles one function set per
  // partition, seconds of LLVM for a query that runs in milliseconds.
  const pool = new pg.Pool({ connectionString: resolved.url, max: options.postgresqlPoolSize ?? 10, options: `-c search_path="${schema}" -c jit=off` });
  pool.on("error", () => undefined); // an idle client's error is reported on its next use
  const masked = new URL(resolved.url);
  if (masked.password) masked.password = "****";
  return {
    provider: "postgresql",
    displayUrl: masked.toString(),
    runStatements: createPostgresqlStatementRunner(pool),
    queryStatement: createPostgresqlStatementQuery(pool),
    pool,
    schema,
    migrate: () => migrateDatabase({ url: resolved.url, provider: "postgresql", schema }),
    close: () => pool.end(),
  };
}

/**
 * Opens the database named by `url` for the data plane: the raw SQLite (libSQL) or PostgreSQL
 * driver, without Prisma's runtime and query compiler (about 55 MB of a process's memory). Enough
 * for `loadControlPlaneSnapshot`, `readControlPlaneVersion`, `subscribeControlPlaneChanges`,
 * `writeUsageBatch` and the delivery-target reads and outcome records. Does not migrate: call
 * `migrate()`. Import it from `@gateway/db/data-plane` so that Prisma is not loaded at all.
 */
export function openDataPlaneDatabase(options: OpenDataPlaneDatabaseOptions = {}): DataPlaneDatabase {
  const resolved = resolveDatabaseUrl(options.url, options.dataDirectory);
  const connections = openSqlConnections(resolved, options);
  const database: DataPlaneDatabase = {
    provider: connections.provider,
    displayUrl: connections.displayUrl,
    runStatements: connections.runStatements,
    queryStatement: connections.queryStatement,
    migrate: connections.migrate,
    close: connections.close,
  };
  if (connections.schema !== null) {
    // For `subscribeControlPlaneChanges` (a dedicated LISTEN connection); not a property, the URL may hold a password.
    rememberListenConnection(database, { connectionString: resolved.url, schema: connections.schema });
  }
  return database;
}

import { createHash, randomUUID } from "node:crypto";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { createClient, type Client as LibSqlClient } from "@libsql/client";
import pg from "pg";
import type { DatabaseProvider } from "./database-url.js";

/** Options of `migrateDatabase`. */
export interface MigrateDatabaseOptions {
  /** libSQL `file:` URL or PostgreSQL connection string (without `?schema=`). */
  url: string;
  provider: DatabaseProvider;
  /** PostgreSQL schema (created when missing). Default "public". */
  schema?: string;
  /** Root holding `sqlite/` and `postgresql/`. Default: the package's committed `migrations/`. */
  migrationsDirectory?: string;
  /** SQLite: how long to wait for another process's lock, ms. Default 60000. */
  busyTimeoutMs?: number;
}

/** What `migrate()` did. */
export interface MigrationResult {
  /** Migrations applied by this call, in order. */
  applied: string[];
  /** Migrations that were already applied (by an earlier run or a concurrent process). */
  alreadyApplied: string[];
  /** Rows in `_prisma_migrations` with no local folder (e.g. written by a newer release). */
  unknown: string[];
}

/** A committed migration. */
export interface MigrationFile {
  name: string;
  sql: string;
  /** sha256 hex of the file's bytes, as Prisma computes it. */
  checksum: string;
}

/** Thrown when migrating is unsafe (changed file, failed earlier migration). */
export class MigrationError extends Error {
  override readonly name = "MigrationError";
}

interface AppliedRow {
  migration_name: string;
  checksum: string;
  finished_at: unknown;
  rolled_back_at: unknown;
}

/** `migrations/` next to `src/` and `dist/` (this file is bundled into dist/index.js). */
export function defaultMigrationsDirectory(): string {
  return path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", "migrations");
}

/** Reads `migrations/<provider>/<timestamp>_<name>/migration.sql` in order. */
export function readMigrationFiles(provider: DatabaseProvider, migrationsDirectory = defaultMigrationsDirectory()): MigrationFile[] {
  const directory = path.join(migrationsDirectory, provider);
  if (!existsSync(directory)) throw new MigrationError(`no migrations directory for ${provider} at ${directory}`);
  return readdirSync(directory, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && /^\d{14}_[A-Za-z0-9_]+$/.test(entry.name))
    .map((entry) => entry.name)
    .sort()
    .map((name) => {
      const bytes = readFileSync(path.join(directory, name, "migration.sql"));
      return { name, sql: bytes.toString("utf8"), checksum: createHash("sha256").update(bytes).digest("hex") };
    });
}

/** Prisma's `_prisma_migrations` table, per provider (same layout Prisma Migrate creates). */
const MIGRATIONS_TABLE_SQL: Record<DatabaseProvider, string> = {
  sqlite: `CREATE TABLE IF NOT EXISTS "_prisma_migrations" (
    "id"                    TEXT PRIMARY KEY NOT NULL,
    "checksum"              TEXT NOT NULL,
    "finished_at"           DATETIME,
    "migration_name"        TEXT NOT NULL,
    "logs"                  TEXT,
    "rolled_back_at"        DATETIME,
    "started_at"            DATETIME NOT NULL DEFAULT current_timestamp,
    "applied_steps_count"   INTEGER UNSIGNED NOT NULL DEFAULT 0
)`,
  postgresql: `CREATE TABLE IF NOT EXISTS "_prisma_migrations" (
    "id"                    VARCHAR(36) PRIMARY KEY NOT NULL,
    "checksum"              VARCHAR(64) NOT NULL,
    "finished_at"           TIMESTAMPTZ,
    "migration_name"        VARCHAR(255) NOT NULL,
    "logs"                  TEXT,
    "rolled_back_at"        TIMESTAMPTZ,
    "started_at"            TIMESTAMPTZ NOT NULL DEFAULT now(),
    "applied_steps_count"   INTEGER NOT NULL DEFAULT 0
)`,
};

/**
 * Checks the applied rows against the files: refuses when an applied migration's file changed
 * or an earlier migration failed and was not rolled back. Returns the names already applied.
 */
function checkApplied(rows: AppliedRow[], files: MigrationFile[]): { applied: Set<string>; unknown: string[] } {
  const byName = new Map(files.map((file) => [file.name, file]));
  const applied = new Set<string>();
  const unknown: string[] = [];
  for (const row of rows) {
    if (row.rolled_back_at !== null && row.rolled_back_at !== undefined) continue;
    if (row.finished_at === null || row.finished_at === undefined) {
      throw new MigrationError(
        `migration ${row.migration_name} started but did not finish; resolve it (e.g. \`prisma migrate resolve --rolled-back ${row.migration_name}\`) before migrating`,
      );
    }
    const file = byName.get(row.migration_name);
    if (!file) {
      unknown.push(row.migration_name);
      continue;
    }
    if (file.checksum !== row.checksum) {
      throw new MigrationError(
        `migration ${row.migration_name} was modified after it was applied (checksum ${row.checksum.slice(0, 12)}… in the database, ${file.checksum.slice(0, 12)}… on disk); refusing to migrate`,
      );
    }
    applied.add(row.migration_name);
  }
  return { applied, unknown };
}

/**
 * Applies the committed migrations of one provider in order, each in its own transaction,
 * recording them in `_prisma_migrations` like `prisma migrate deploy` does. Safe to call from
 * several processes at once: PostgreSQL takes Prisma's advisory lock, SQLite serialises on
 * `BEGIN IMMEDIATE` and re-checks inside it. Idempotent.
 */
export async function migrateDatabase(options: MigrateDatabaseOptions): Promise<MigrationResult> {
  const files = readMigrationFiles(options.provider, options.migrationsDirectory);
  return options.provider === "sqlite" ? migrateSqlite(options, files) : migratePostgresql(options, files);
}

/** True for SQLITE_BUSY / SQLITE_LOCKED (another connection holds the lock). */
function isSqliteBusy(error: unknown): boolean {
  const code = typeof error === "object" && error !== null ? String((error as { code?: unknown }).code ?? "") : "";
  const cause = typeof error === "object" && error !== null ? (error as { cause?: unknown }).cause : undefined;
  return code.startsWith("SQLITE_BUSY") || code.startsWith("SQLITE_LOCKED") || (cause !== undefined && isSqliteBusy(cause));
}

/**
 * Retries `operation` while SQLite reports the database busy. libSQL waits synchronously when a
 * busy timeout is set, which would block this thread (and a second connection in the same
 * process that holds the lock), so the runner uses no busy timeout and waits asynchronously.
 */
async function retryWhileBusy<T>(operation: () => Promise<T>, deadline: number): Promise<T> {
  for (let attempt = 0; ; attempt += 1) {
    try {
      return await operation();
    } catch (error) {
      if (!isSqliteBusy(error) || Date.now() > deadline) throw error;
      await new Promise((resolve) => setTimeout(resolve, Math.min(200, 5 * 2 ** attempt) + Math.random() * 10));
    }
  }
}

async function migrateSqlite(options: MigrateDatabaseOptions, files: MigrationFile[]): Promise<MigrationResult> {
  const client: LibSqlClient = createClient({ url: options.url });
  const deadline = Date.now() + (options.busyTimeoutMs ?? 60_000);
  const result: MigrationResult = { applied: [], alreadyApplied: [], unknown: [] };
  try {
    // WAL lets the gateway and the dashboard read while the other writes; it is persistent.
    await retryWhileBusy(() => client.execute("PRAGMA journal_mode = WAL"), deadline);
    let counted = false;
    for (const file of files) {
      // BEGIN IMMEDIATE takes the write lock; everything below is decided under it.
      const transaction = await retryWhileBusy(() => client.transaction("write"), deadline);
      try {
        await transaction.execute(MIGRATIONS_TABLE_SQL.sqlite);
        const rows = (await transaction.execute(
          `SELECT "migration_name", "checksum", "finished_at", "rolled_back_at" FROM "_prisma_migrations" ORDER BY "started_at"`,
        )).rows as unknown as AppliedRow[];
        const { applied, unknown } = checkApplied(rows, files);
        if (!counted) {
          result.unknown = unknown;
          counted = true;
        }
        if (applied.has(file.name)) {
          await transaction.rollback();
          result.alreadyApplied.push(file.name);
          continue;
        }
        const startedAt = new Date().toISOString();
        await transaction.executeMultiple(file.sql);
        await transaction.execute({
          sql: `INSERT INTO "_prisma_migrations" ("id", "checksum", "finished_at", "migration_name", "logs", "rolled_back_at", "started_at", "applied_steps_count") VALUES (?, ?, ?, ?, NULL, NULL, ?, 1)`,
          args: [randomUUID(), file.checksum, new Date().toISOString(), file.name, startedAt],
        });
        await transaction.commit();
        result.applied.push(file.name);
      } catch (error) {
        if (!transaction.closed) await transaction.rollback().catch(() => undefined);
        throw wrapFailure(error, file.name);
      } finally {
        transaction.close();
      }
    }
    return result;
  } finally {
    client.close();
  }
}

/** Prisma Migrate's advisory lock id, so this runner and `prisma migrate deploy` exclude each other. */
const PRISMA_ADVISORY_LOCK_ID = 72707369;

async function migratePostgresql(options: MigrateDatabaseOptions, files: MigrationFile[]): Promise<MigrationResult> {
  const schema = options.schema ?? "public";
  const client = new pg.Client({ connectionString: options.url });
  await client.connect();
  const result: MigrationResult = { applied: [], alreadyApplied: [], unknown: [] };
  try {
    await client.query(`SELECT pg_advisory_lock(${PRISMA_ADVISORY_LOCK_ID})`);
    try {
      await client.query(`CREATE SCHEMA IF NOT EXISTS "${schema}"`);
      await client.query(`SET search_path TO "${schema}"`);
      await client.query(MIGRATIONS_TABLE_SQL.postgresql);
      const rows = (
        await client.query<AppliedRow>(
          `SELECT "migration_name", "checksum", "finished_at", "rolled_back_at" FROM "_prisma_migrations" ORDER BY "started_at"`,
        )
      ).rows;
      const { applied, unknown } = checkApplied(rows, files);
      result.unknown = unknown;
      for (const file of files) {
        if (applied.has(file.name)) {
          result.alreadyApplied.push(file.name);
          continue;
        }
        await client.query("BEGIN");
        try {
          const startedAt = new Date();
          await client.query(file.sql);
          await client.query(
            `INSERT INTO "_prisma_migrations" ("id", "checksum", "finished_at", "migration_name", "logs", "rolled_back_at", "started_at", "applied_steps_count") VALUES ($1, $2, now(), $3, NULL, NULL, $4, 1)`,
            [randomUUID(), file.checksum, file.name, startedAt],
          );
          await client.query("COMMIT");
          result.applied.push(file.name);
        } catch (error) {
          await client.query("ROLLBACK").catch(() => undefined);
          throw wrapFailure(error, file.name);
        }
      }
    } finally {
      await client.query(`SELECT pg_advisory_unlock(${PRISMA_ADVISORY_LOCK_ID})`).catch(() => undefined);
    }
    return result;
  } finally {
    await client.end();
  }
}

function wrapFailure(error: unknown, migrationName: string): Error {
  if (error instanceof MigrationError) return error;
  const message = error instanceof Error ? error.message : String(error);
  return new MigrationError(`migration ${migrationName} failed and was rolled back: ${message}`, { cause: error });
}

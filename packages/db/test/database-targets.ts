import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { randomBytes } from "node:crypto";
import pg from "pg";
import { createDatabase, type Database } from "../src/index.js";

/** PostgreSQL for the suites: TEST_DATABASE_URL, skipped with a warning locally, required in CI. */
export const postgresqlUrl = process.env.TEST_DATABASE_URL;
if (!postgresqlUrl) {
  if (process.env.CI) throw new Error("TEST_DATABASE_URL must be set in CI (the PostgreSQL suites cannot be skipped there)");
  console.warn("\n⚠ TEST_DATABASE_URL is not set: the PostgreSQL half of the @gateway/db suites is SKIPPED (SQLite still runs).\n");
}

/** A fresh, empty database of one provider, removed by `cleanup()`. */
export interface FreshDatabase {
  url: string;
  /** PostgreSQL schema name (null for SQLite). */
  schema: string | null;
  open(): Database;
  cleanup(): Promise<void>;
}

export interface DatabaseTarget {
  provider: "sqlite" | "postgresql";
  skip: boolean;
  fresh(): Promise<FreshDatabase>;
}

async function freshSqlite(): Promise<FreshDatabase> {
  const directory = mkdtempSync(path.join(tmpdir(), "gateway-db-test-"));
  const url = `file:${path.join(directory, "test.db")}`;
  return {
    url,
    schema: null,
    open: () => createDatabase({ url }),
    cleanup: async () => rmSync(directory, { recursive: true, force: true }),
  };
}

async function freshPostgresql(): Promise<FreshDatabase> {
  const schema = `gateway_test_${randomBytes(6).toString("hex")}`;
  const admin = new pg.Client({ connectionString: postgresqlUrl });
  await admin.connect();
  await admin.query(`CREATE SCHEMA "${schema}"`);
  await admin.end();
  const url = new URL(postgresqlUrl!);
  url.searchParams.set("schema", schema);
  return {
    url: url.toString(),
    schema,
    open: () => createDatabase({ url: url.toString(), postgresqlPoolSize: 4 }),
    cleanup: async () => {
      const client = new pg.Client({ connectionString: postgresqlUrl });
      await client.connect();
      await client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
      await client.end();
    },
  };
}

/** Both providers; the suites run once per entry (`describe.each`). */
export const databaseTargets: DatabaseTarget[] = [
  { provider: "sqlite", skip: false, fresh: freshSqlite },
  { provider: "postgresql", skip: !postgresqlUrl, fresh: freshPostgresql },
];

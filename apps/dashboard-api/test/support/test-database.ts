import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { createDatabase, type Database } from "@gateway/db";

/** Which databases the core suites run on: SQLite always, PostgreSQL when `TEST_DATABASE_URL` is set. */
export type DatabaseTarget = "sqlite" | "postgresql";

const postgresUrl = process.env.TEST_DATABASE_URL;
if (!postgresUrl) {
  if (process.env.CI) throw new Error("TEST_DATABASE_URL must be set in CI: the dashboard suites also run on PostgreSQL.");
  console.warn("TEST_DATABASE_URL is not set: the dashboard suites run on SQLite only (PostgreSQL skipped).");
}

/** The targets to run the core suites on. */
export const databaseTargets: DatabaseTarget[] = postgresUrl ? ["sqlite", "postgresql"] : ["sqlite"];

/** A migrated, isolated database and how to throw it away. */
export interface TestDatabase {
  database: Database;
  /** Its URL (for another handle on the same database, e.g. a gateway's). */
  url: string;
  dispose(): Promise<void>;
}

/** Opens a fresh database: a temp SQLite file, or an own PostgreSQL schema. */
export async function openTestDatabase(target: DatabaseTarget = "sqlite"): Promise<TestDatabase> {
  if (target === "sqlite") {
    const directory = mkdtempSync(path.join(tmpdir(), "dashboard-test-"));
    const url = `file:${path.join(directory, "test.db")}`;
    const database = createDatabase({ url });
    await database.migrate();
    return {
      database,
      url,
      async dispose() {
        await database.close();
        rmSync(directory, { recursive: true, force: true });
      },
    };
  }
  const schema = `dashboard_${randomBytes(6).toString("hex")}`;
  const url = new URL(postgresUrl!);
  url.searchParams.set("schema", schema);
  const database = createDatabase({ url: url.toString(), postgresqlPoolSize: 4 });
  await database.migrate();
  return {
    database,
    url: url.toString(),
    async dispose() {
      await database.prisma.$executeRawUnsafe(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
      await database.close();
    },
  };
}

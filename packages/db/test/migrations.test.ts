import { chmodSync, cpSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync, appendFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { defaultMigrationsDirectory, migrateDatabase, readMigrationFiles, resolveDatabaseUrl, createDatabase, loadSecretBoxFromEnvironment } from "../src/index.js";
import { databaseTargets, type FreshDatabase } from "./database-targets.js";

describe.each(databaseTargets)("migrations on $provider", (target) => {
  const opened: FreshDatabase[] = [];
  const temporaryDirectories: string[] = [];
  afterEach(async () => {
    await Promise.all(opened.splice(0).map((database) => database.cleanup()));
    for (const directory of temporaryDirectories.splice(0)) rmSync(directory, { recursive: true, force: true });
  });

  const fresh = async () => {
    const database = await target.fresh();
    opened.push(database);
    return database;
  };

  it.skipIf(target.skip)("applies every committed migration to an empty database, then is idempotent", async () => {
    const fresh1 = await fresh();
    const database = fresh1.open();
    try {
      const files = readMigrationFiles(target.provider);
      expect(files.length).toBeGreaterThan(0);
      const first = await database.migrate();
      expect(first.applied).toEqual(files.map((file) => file.name));
      const second = await database.migrate();
      expect(second.applied).toEqual([]);
      expect(second.alreadyApplied).toEqual(files.map((file) => file.name));
      const rows = await database.prisma.$queryRawUnsafe<{ migration_name: string; checksum: string; applied_steps_count: number | bigint; finished_at: unknown }[]>(
        `SELECT "migration_name", "checksum", "applied_steps_count", "finished_at" FROM "_prisma_migrations" ORDER BY "migration_name"`,
      );
      expect(rows.map((row) => [row.migration_name, row.checksum, Number(row.applied_steps_count)])).toEqual(files.map((file) => [file.name, file.checksum, 1]));
      expect(rows.every((row) => row.finished_at !== null)).toBe(true);
      // The schema is usable and the version row exists.
      expect(await database.prisma.organization.count()).toBe(0);
      expect((await database.prisma.controlPlaneVersion.findUnique({ where: { id: 1 } }))?.version).toBeGreaterThan(0n);
    } finally {
      await database.close();
    }
  });

  it.skipIf(target.skip)("refuses to run when an applied migration's file changed", async () => {
    const fresh1 = await fresh();
    const migrationsDirectory = mkdtempSync(path.join(tmpdir(), "gateway-migrations-"));
    temporaryDirectories.push(migrationsDirectory);
    cpSync(defaultMigrationsDirectory(), migrationsDirectory, { recursive: true });
    const resolved = resolveDatabaseUrl(fresh1.url);
    const options = { url: resolved.url, provider: target.provider, schema: resolved.schema ?? undefined, migrationsDirectory };
    await migrateDatabase(options);
    const providerDirectory = path.join(migrationsDirectory, target.provider);
    const first = readdirSync(providerDirectory).filter((entry) => /^\d{14}_/.test(entry)).sort()[0]!;
    appendFileSync(path.join(providerDirectory, first, "migration.sql"), "\n-- edited after it was applied\n");
    await expect(migrateDatabase(options)).rejects.toThrow(/was modified after it was applied/);
  });

  it.skipIf(target.skip)("applies each migration once when two processes migrate the same fresh database at once", async () => {
    const fresh1 = await fresh();
    const first = fresh1.open();
    const second = fresh1.open();
    try {
      const [left, right] = await Promise.all([first.migrate(), second.migrate()]);
      const files = readMigrationFiles(target.provider).map((file) => file.name);
      expect([...left.applied, ...right.applied].sort()).toEqual(files.sort());
      const rows = await first.prisma.$queryRawUnsafe<{ migration_name: string }[]>(`SELECT "migration_name" FROM "_prisma_migrations"`);
      expect(rows.map((row) => row.migration_name).sort()).toEqual(files.sort());
    } finally {
      await first.close();
      await second.close();
    }
  });

  it.skipIf(target.skip)("rolls a failing migration back and records nothing", async () => {
    const fresh1 = await fresh();
    const migrationsDirectory = mkdtempSync(path.join(tmpdir(), "gateway-migrations-"));
    temporaryDirectories.push(migrationsDirectory);
    cpSync(defaultMigrationsDirectory(), migrationsDirectory, { recursive: true });
    const broken = path.join(migrationsDirectory, target.provider, "29991231000000_broken");
    cpSync(path.join(migrationsDirectory, target.provider, readdirSync(path.join(migrationsDirectory, target.provider)).filter((entry) => /^\d{14}_/.test(entry))[0]!), broken, { recursive: true });
    writeFileSync(path.join(broken, "migration.sql"), `CREATE TABLE "half_done" ("id" INTEGER);\nSELECT * FROM "no_such_table";\n`);
    const resolved = resolveDatabaseUrl(fresh1.url);
    const options = { url: resolved.url, provider: target.provider, schema: resolved.schema ?? undefined, migrationsDirectory };
    await expect(migrateDatabase(options)).rejects.toThrow(/29991231000000_broken failed and was rolled back/);
    const database = fresh1.open();
    try {
      const rows = await database.prisma.$queryRawUnsafe<{ migration_name: string }[]>(`SELECT "migration_name" FROM "_prisma_migrations"`);
      expect(rows.map((row) => row.migration_name)).not.toContain("29991231000000_broken");
      await expect(database.prisma.$queryRawUnsafe(`SELECT * FROM "half_done"`)).rejects.toThrow();
    } finally {
      await database.close();
    }
  });
});

describe("the embedded default", () => {
  it("creates ./data/gateway.db under the data directory and migrates it", async () => {
    const directory = mkdtempSync(path.join(tmpdir(), "gateway-embedded-"));
    const dataDirectory = path.join(directory, "data");
    const database = createDatabase({ dataDirectory });
    try {
      expect(database.provider).toBe("sqlite");
      const result = await database.migrate();
      expect(result.applied.length).toBeGreaterThan(0);
      expect(readdirSync(dataDirectory)).toContain("gateway.db");
    } finally {
      await database.close();
      rmSync(directory, { recursive: true, force: true });
    }
  });

  it("creates the data directory 0700, and gateway.db, its -wal/-shm and secret.key 0600", async () => {
    const directory = mkdtempSync(path.join(tmpdir(), "gateway-modes-"));
    const dataDirectory = path.join(directory, "data");
    const database = createDatabase({ dataDirectory });
    try {
      await database.migrate();
      await database.queryStatement({ sql: "SELECT COUNT(*) AS n FROM organizations", args: [] });
      loadSecretBoxFromEnvironment({ env: {}, dataDirectory });
      const modeOf = (name: string) => statSync(path.join(dataDirectory, name)).mode & 0o777;
      expect(statSync(dataDirectory).mode & 0o777).toBe(0o700);
      const files = readdirSync(dataDirectory);
      expect(files).toEqual(expect.arrayContaining(["gateway.db", "gateway.db-wal", "gateway.db-shm", "secret.key"]));
      for (const file of files) expect([file, modeOf(file)]).toEqual([file, 0o600]);
    } finally {
      await database.close();
      rmSync(directory, { recursive: true, force: true });
    }
  });

  it("narrows an existing gateway.db readable by others to 0600", async () => {
    const directory = mkdtempSync(path.join(tmpdir(), "gateway-modes-"));
    const file = path.join(directory, "gateway.db");
    writeFileSync(file, "");
    chmodSync(file, 0o644);
    const database = createDatabase({ dataDirectory: directory });
    try {
      expect(statSync(file).mode & 0o777).toBe(0o600);
    } finally {
      await database.close();
      rmSync(directory, { recursive: true, force: true });
    }
  });

  it("rejects unsupported URLs without echoing them", () => {
    expect(() => resolveDatabaseUrl("mysql://user:secret@host/db")).toThrow(/unsupported scheme "mysql:"/);
    expect(() => resolveDatabaseUrl("mysql://user:secret@host/db")).not.toThrow(/secret/);
  });
});

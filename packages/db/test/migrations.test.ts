import { chmodSync, cpSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync, appendFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { defaultMigrationsDirectory, migrateDatabase, readMigrationFiles, resolveDatabaseUrl, createDatabase, loadSecretBoxFromEnvironment, writeUsageBatch } from "../src/index.js";
import { databaseTargets, type DatabaseTarget, type FreshDatabase } from "./database-targets.js";
import { usageEvent } from "./usage-event-fixture.js";

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

/**
 * A fresh database migrated up to (not including) the migration named `<timestamp>_<name>`: the
 * schema as it was before it, to write rows the way older code did; `migrateTheRest()` then
 * applies that migration and every later one.
 */
async function migratedUpTo(target: DatabaseTarget, name: string) {
  const fresh = await target.fresh();
  const migrationsDirectory = mkdtempSync(path.join(tmpdir(), "gateway-migrations-"));
  const held = mkdtempSync(path.join(tmpdir(), "gateway-migrations-held-"));
  cpSync(defaultMigrationsDirectory(), migrationsDirectory, { recursive: true });
  const providerDirectory = path.join(migrationsDirectory, target.provider);
  const migrationName = readdirSync(providerDirectory).find((entry) => new RegExp(`^\\d{14}_${name}$`).test(entry))!;
  const later = readdirSync(providerDirectory).filter((entry) => /^\d{14}_/.test(entry) && entry >= migrationName);
  for (const entry of later) {
    cpSync(path.join(providerDirectory, entry), path.join(held, entry), { recursive: true });
    rmSync(path.join(providerDirectory, entry), { recursive: true, force: true });
  }
  const resolved = resolveDatabaseUrl(fresh.url);
  const options = { url: resolved.url, provider: target.provider, schema: resolved.schema ?? undefined, migrationsDirectory };
  await migrateDatabase(options);
  return {
    fresh,
    migrationName,
    migrateTheRest: () => {
      for (const entry of later) cpSync(path.join(held, entry), path.join(providerDirectory, entry), { recursive: true });
      return migrateDatabase(options);
    },
    cleanup: async () => {
      rmSync(migrationsDirectory, { recursive: true, force: true });
      rmSync(held, { recursive: true, force: true });
      await fresh.cleanup();
    },
  };
}

describe.each(databaseTargets)("the activity storage migration on $provider", (target) => {
  it.skipIf(target.skip)("keeps usage events written before it, backfills their flags and hourly rollups, and (PostgreSQL) moves them into day partitions", async () => {
    const before = await migratedUpTo(target, "activity_store");
    const activityMigration = before.migrationName;
    try {
      const database = before.fresh.open();
      try {
        const timestamp = (iso: string) => (target.provider === "sqlite" ? iso.replace("Z", "+00:00") : iso.slice(0, -1));
        const insert = `INSERT INTO "usage_events" ("id", "request_id", "occurred_at", "organization_id", "project_id", "api_key_id", "endpoint", "provider", "model", "status",
            "input_tokens", "output_tokens", "cache_read_tokens", "cache_write_tokens", "cost_micros", "latency_ms", "time_to_first_byte_ms", "client_label", "guardrail_flags", "content")
          VALUES ($1, $2, ${target.provider === "sqlite" ? "$3" : "$3::timestamp"}, 'org_1', 'prj_1', 'key_1', 'chat_completions', 'openai', 'gpt-4o', $4, 10, 5, 0, 0, 120, $5, 40, 'cli', ${target.provider === "sqlite" ? "$6, $7" : "$6::jsonb, $7::jsonb"})`;
        const rows = [
          ["evt_old_1", "req_old_1", "2026-10-01T10:15:00.000Z", 200, 80, "[]", null],
          ["evt_old_2", "req_old_2", "2026-10-01T10:45:00.000Z", 502, 900, '["pii_redacted"]', '{"request":{"messages":[]}}'],
          ["evt_old_3", "req_old_3", "2026-10-03T23:59:59.000Z", 200, 60, "[]", null],
        ];
        for (const [id, requestId, at, status, latency, flags, content] of rows) {
          await database.prisma.$executeRawUnsafe(target.provider === "sqlite" ? insert.replace(/\$\d/g, "?") : insert, id, requestId, timestamp(at as string), status, latency, flags, content);
        }
        const result = await before.migrateTheRest();
        expect(result.applied).toContain(activityMigration);

        const events = await database.prisma.usageEvent.findMany({ orderBy: { requestId: "asc" } });
        expect(events.map((event) => [event.requestId, event.status, event.guardrailFlagged, event.hasContent, event.attemptCount, event.metadata])).toEqual([
          ["req_old_1", 200, false, false, 0, {}],
          ["req_old_2", 502, true, true, 0, {}],
          ["req_old_3", 200, false, false, 0, {}],
        ]);
        expect(events[1]!.content).toEqual({ request: { messages: [] } });
        const hourly = await database.prisma.usageHourlyRollup.findMany({ orderBy: { hour: "asc" } });
        expect(hourly.map((row) => [row.hour.toISOString(), row.model, row.clientLabel, row.requestCount, row.errorCount, row.latencyMsSum, row.latencyMsMax, row.latencyBucket1, row.latencyBucket6])).toEqual([
          ["2026-10-01T10:00:00.000Z", "openai/gpt-4o", "cli", 2n, 1n, 980n, 900n, 1n, 1n],
          ["2026-10-03T23:00:00.000Z", "openai/gpt-4o", "cli", 1n, 0n, 60n, 60n, 1n, 0n],
        ]);
        if (target.provider === "postgresql") {
          const partitions = await database.prisma.$queryRawUnsafe<{ partition: string; rows: bigint }[]>(
            `SELECT tableoid::regclass::text AS partition, COUNT(*) AS rows FROM "usage_events" GROUP BY 1 ORDER BY 1`,
          );
          expect(partitions.map((row) => [row.partition.replace(/^.*\./, "").replace(/"/g, ""), Number(row.rows)])).toEqual([
            ["usage_events_p20261001", 2],
            ["usage_events_p20261003", 1],
          ]);
        }
      } finally {
        await database.close();
      }
    } finally {
      await before.cleanup();
    }
  });
});

describe.each(databaseTargets)("the organization hourly rollups migration on $provider", (target) => {
  it.skipIf(target.skip)("backfills the organization rollups from the hourly rollups recorded before it, and later batches add to them", async () => {
    const before = await migratedUpTo(target, "organization_hourly_rollups");
    try {
      const database = before.fresh.open();
      try {
        // Hourly rollups as the usage writer kept them before: two keys and two client labels in one
        // hour and model, another model, another hour, another organization.
        const row = (hour: string, organizationId: string, apiKeyId: string, model: string, clientLabel: string, count: number, latencyMax: number) => ({
          hour: new Date(hour), organizationId, projectId: "prj_1", apiKeyId, model, clientLabel,
          requestCount: BigInt(count), errorCount: 1n, inputTokens: BigInt(10 * count), outputTokens: BigInt(5 * count), cacheReadTokens: 0n, cacheWriteTokens: 0n,
          costMicros: BigInt(100 * count), latencyMsSum: BigInt(50 * count), latencyCount: BigInt(count), latencyMsMax: BigInt(latencyMax),
          timeToFirstByteMsSum: BigInt(7 * count), timeToFirstByteCount: BigInt(count), latencyBucket1: BigInt(count), updatedAt: new Date(),
        });
        await database.prisma.usageHourlyRollup.createMany({
          data: [
            row("2026-10-01T10:00:00Z", "org_1", "key_1", "openai/gpt-4o", "cli", 3, 90),
            row("2026-10-01T10:00:00Z", "org_1", "key_2", "openai/gpt-4o", "web", 2, 400),
            row("2026-10-01T10:00:00Z", "org_1", "key_1", "anthropic/claude", "cli", 1, 60),
            row("2026-10-01T11:00:00Z", "org_1", "key_1", "openai/gpt-4o", "cli", 4, 70),
            row("2026-10-01T10:00:00Z", "org_2", "key_9", "openai/gpt-4o", "", 5, 80),
          ],
        });
        const result = await before.migrateTheRest();
        expect(result.applied).toContain(before.migrationName);

        const read = async () =>
          (await database.prisma.usageOrganizationHourlyRollup.findMany({ orderBy: [{ organizationId: "asc" }, { hour: "asc" }, { model: "asc" }] })).map((rollup) => [
            rollup.organizationId, rollup.hour.toISOString(), rollup.model, rollup.requestCount, rollup.errorCount, rollup.inputTokens, rollup.costMicros,
            rollup.latencyMsSum, rollup.latencyMsMax, rollup.timeToFirstByteCount, rollup.latencyBucket1,
          ]);
        expect(await read()).toEqual([
          ["org_1", "2026-10-01T10:00:00.000Z", "anthropic/claude", 1n, 1n, 10n, 100n, 50n, 60n, 1n, 1n],
          ["org_1", "2026-10-01T10:00:00.000Z", "openai/gpt-4o", 5n, 2n, 50n, 500n, 250n, 400n, 5n, 5n],
          ["org_1", "2026-10-01T11:00:00.000Z", "openai/gpt-4o", 4n, 1n, 40n, 400n, 200n, 70n, 4n, 4n],
          ["org_2", "2026-10-01T10:00:00.000Z", "openai/gpt-4o", 5n, 1n, 50n, 500n, 250n, 80n, 5n, 5n],
        ]);
        // A call recorded after the migration adds to the backfilled row of its hour and model.
        await writeUsageBatch(database, [
          usageEvent({ organizationId: "org_1", apiKeyId: "key_3", occurredAt: new Date("2026-10-01T10:30:00Z"), provider: "openai", model: "gpt-4o", costMicros: 7, latencyMs: 500, inputTokens: 1, status: 200 }),
        ]);
        expect((await read())[1]).toEqual(["org_1", "2026-10-01T10:00:00.000Z", "openai/gpt-4o", 6n, 2n, 51n, 507n, 750n, 500n, 6n, 5n]);
      } finally {
        await database.close();
      }
    } finally {
      await before.cleanup();
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

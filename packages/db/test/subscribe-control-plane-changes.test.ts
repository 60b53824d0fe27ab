import pg from "pg";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import {
  type Database,
  createApiKey,
  createOrganization,
  createProject,
  readControlPlaneVersion,
  subscribeControlPlaneChanges,
} from "../src/index.js";
import { databaseTargets, type FreshDatabase } from "./database-targets.js";

const postgresql = databaseTargets.find((target) => target.provider === "postgresql")!;

describe.skipIf(postgresql.skip)("subscribeControlPlaneChanges on PostgreSQL", () => {
  let fresh: FreshDatabase;
  let database: Database;
  let other: pg.Client;

  beforeAll(async () => {
    fresh = await postgresql.fresh();
    database = fresh.open();
    await database.migrate();
    const organization = await createOrganization(database, { name: "Listen", slug: `listen-${Date.now()}` });
    const project = await createProject(database, { organizationId: organization.id, name: "p" });
    await createApiKey(database, { organizationId: organization.id, projectId: project.id, name: "k" });
    // "Another process": a plain pg connection of its own, in the test's schema.
    other = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL, options: `-c search_path="${fresh.schema}"` });
    await other.connect();
  });

  afterAll(async () => {
    await other?.end();
    await database?.close();
    await fresh?.cleanup();
  });

  it("calls onChange with the new version when another connection revokes a key by raw SQL", async () => {
    const versions: string[] = [];
    const unsubscribe = await subscribeControlPlaneChanges(database, (version) => versions.push(version));
    try {
      // A notification without a version change (as another schema's write would send) is no change.
      await other.query("NOTIFY gateway_control_plane, 'api_keys'");
      await other.query("UPDATE api_keys SET revoked_at = now() WHERE revoked_at IS NULL");
      const expected = await readControlPlaneVersion(database);
      await vi.waitFor(() => expect(versions).toContain(expected), { timeout: 5000, interval: 10 });
      // Notifications are handled in order, so the bare NOTIFY was handled before the revocation.
      expect(versions).toEqual([expected]);
    } finally {
      await unsubscribe();
    }
  });

  it("tells the changed table and ids with the version, and ignores other schemas' notifications without a read", async () => {
    const notifications: unknown[] = [];
    const unsubscribe = await subscribeControlPlaneChanges(database, (_version, notification) => notifications.push(notification));
    try {
      // What another schema's trigger sends (NOTIFY is database-wide).
      await other.query(`SELECT pg_notify('gateway_control_plane', '{"schema":"someone_else","version":"999999","table":"api_keys","ids":["x"]}')`);
      const { rows } = await other.query<{ id: string }>("UPDATE projects SET name = name || '?' RETURNING id");
      const expected = await readControlPlaneVersion(database);
      await vi.waitFor(() => expect(notifications).toHaveLength(1), { timeout: 5000, interval: 10 });
      expect(notifications).toEqual([{ version: expected, change: { version: expected, table: "projects", ids: rows.map((row) => row.id) } }]);
    } finally {
      await unsubscribe();
    }
  });

  it("stops calling onChange after unsubscribe", async () => {
    const versions: string[] = [];
    const unsubscribe = await subscribeControlPlaneChanges(database, (version) => versions.push(version));
    await unsubscribe();
    await other.query("UPDATE projects SET name = name || '!'");
    const changed = await readControlPlaneVersion(database);
    // A fresh subscriber sees this change, the closed one does not.
    const seen: string[] = [];
    const second = await subscribeControlPlaneChanges(database, (version) => seen.push(version));
    try {
      await other.query("UPDATE projects SET name = name || '!'");
      await vi.waitFor(() => expect(seen.length).toBe(1), { timeout: 5000, interval: 10 });
      expect(BigInt(seen[0]!)).toBeGreaterThan(BigInt(changed));
      expect(versions).toEqual([]);
    } finally {
      await second();
    }
  });

  it("reconnects after its connection is killed and reports a change made while it was away", async () => {
    const listenerPids = async () =>
      (
        await other.query<{ pid: number }>(
          "SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND (query ILIKE 'LISTEN gateway_control_plane%' OR query ILIKE 'SELECT \"version\"::text%')",
        )
      ).rows.map((row) => row.pid);
    const before = new Set(await listenerPids());
    const versions: string[] = [];
    const errors: unknown[] = [];
    const unsubscribe = await subscribeControlPlaneChanges(database, (version) => versions.push(version), {
      onError: (error) => errors.push(error),
      minReconnectDelayMs: 50,
    });
    try {
      const ours = (await listenerPids()).filter((pid) => !before.has(pid));
      expect(ours).toHaveLength(1);
      await other.query("SELECT pg_terminate_backend($1)", [ours[0]]);
      await vi.waitFor(() => expect(errors.length).toBeGreaterThan(0), { timeout: 5000, interval: 10 });
      // Changed while (possibly) disconnected: reported after the reconnect, by notification or by the reconnect's version read.
      await other.query("UPDATE projects SET name = name || '?'");
      const expected = await readControlPlaneVersion(database);
      await vi.waitFor(() => expect(versions).toContain(expected), { timeout: 5000, interval: 10 });
      await vi.waitFor(async () => expect((await listenerPids()).filter((pid) => !before.has(pid) && pid !== ours[0])).toHaveLength(1), {
        timeout: 5000,
        interval: 20,
      });
    } finally {
      await unsubscribe();
    }
  });
});

describe("subscribeControlPlaneChanges on SQLite", () => {
  it("resolves a no-op (SQLite has no LISTEN; polling only)", async () => {
    const sqlite = await databaseTargets.find((target) => target.provider === "sqlite")!.fresh();
    const database = sqlite.open();
    try {
      const unsubscribe = await subscribeControlPlaneChanges(database, () => undefined);
      await expect(unsubscribe()).resolves.toBeUndefined();
    } finally {
      await database.close();
      await sqlite.cleanup();
    }
  });
});

import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  type Database,
  createApiKey,
  createOrganization,
  createProject,
  createSecretBox,
  deleteProject,
  loadActiveApiKeys,
  loadControlPlaneConfiguration,
  loadControlPlaneParts,
  readControlPlaneChanges,
  readControlPlaneVersion,
  revokeApiKey,
} from "../src/index.js";
import { databaseTargets, type FreshDatabase } from "./database-targets.js";

const secretBox = createSecretBox({ keys: [{ id: "test", key: randomBytes(32) }], activeKeyId: "test" });

describe.each(databaseTargets)("the control-plane change log on $provider", ({ provider, skip, fresh: open }) => {
  let fresh: FreshDatabase;
  let db: Database;
  let organizationId: string;
  let projectId: string;

  beforeAll(async () => {
    if (skip) return;
    fresh = await open();
    db = fresh.open();
    await db.migrate();
    organizationId = (await createOrganization(db, { name: "Log", slug: `log-${randomBytes(3).toString("hex")}` })).id;
    projectId = (await createProject(db, { organizationId, name: "p" })).id;
  });

  afterAll(async () => {
    await db?.close();
    await fresh?.cleanup();
  });

  it.skipIf(skip)("logs a revocation as (version, api_keys, [its id]) in the transaction that bumps the version", async () => {
    const { apiKey } = await createApiKey(db, { organizationId, projectId, name: "k" });
    const before = await readControlPlaneVersion(db);
    await revokeApiKey(db, { organizationId, id: apiKey.id });
    const after = await readControlPlaneVersion(db);
    expect(await readControlPlaneChanges(db, { afterVersion: before })).toEqual([{ version: after, table: "api_keys", ids: [apiKey.id] }]);
    expect(await loadActiveApiKeys(db, { ids: [apiKey.id, "no_such_key"] })).toEqual([]);
  });

  it.skipIf(skip)("logs nothing for a key's last use (the usage writer's update)", async () => {
    const { apiKey } = await createApiKey(db, { organizationId, projectId, name: "used" });
    const before = await readControlPlaneVersion(db);
    const placeholders = db.provider === "postgresql" ? ["$1", "$2"] : ["?", "?"];
    await db.runStatements([{ sql: `UPDATE "api_keys" SET "last_used_at" = ${placeholders[0]} WHERE "id" = ${placeholders[1]}`, args: [new Date().toISOString(), apiKey.id] }]);
    expect(await readControlPlaneVersion(db)).toBe(before);
    expect(await readControlPlaneChanges(db, { afterVersion: before })).toEqual([]);
  });

  it.skipIf(skip)("logs the key rows a project deletion cascades to, one version per change", async () => {
    const doomed = (await createProject(db, { organizationId, name: "doomed" })).id;
    const { apiKey } = await createApiKey(db, { organizationId, projectId: doomed, name: "k" });
    await revokeApiKey(db, { organizationId, id: apiKey.id });
    const before = await readControlPlaneVersion(db);
    await deleteProject(db, organizationId, doomed);
    const changes = await readControlPlaneChanges(db, { afterVersion: before });
    expect(changes.map((change) => change.table)).toEqual(expect.arrayContaining(["projects", "api_keys"]));
    expect(changes.find((change) => change.table === "api_keys")?.ids).toEqual([apiKey.id]);
    // One version per logged change, without a gap.
    expect(changes.map((change) => Number(change.version))).toEqual(changes.map((_, index) => Number(before) + index + 1));
    expect(changes.at(-1)?.version).toBe(await readControlPlaneVersion(db));
  });

  it.skipIf(skip)("pages the active keys in id order and loads the configuration without them", async () => {
    for (let index = 0; index < 5; index += 1) await createApiKey(db, { organizationId, projectId, name: `page ${index}` });
    const all = await loadActiveApiKeys(db, { afterId: null, limit: 1000 });
    const pages = [];
    for (let afterId: string | null = null; ; ) {
      const page = await loadActiveApiKeys(db, { afterId, limit: 2 });
      pages.push(...page);
      if (page.length < 2) break;
      afterId = page.at(-1)!.id;
    }
    expect(pages.map((key) => key.id)).toEqual(all.map((key) => key.id));
    expect(new Set(all.map((key) => key.id)).size).toBe(all.length);
    const configuration = await loadControlPlaneConfiguration(db, { secretBox });
    expect(configuration).not.toHaveProperty("apiKeys");
    expect(configuration.projects.some((project) => project.id === projectId)).toBe(true);
    expect(await loadControlPlaneParts(db, ["projects"], { secretBox })).toEqual({ projects: configuration.projects });
  });

  it.skipIf(skip)("keeps the latest 1,000 changes", async () => {
    const version = Number(await readControlPlaneVersion(db));
    if (provider === "postgresql") {
      // One statement: one change whose ids are too many to list (gateways reload the keys whole).
      await db.runStatements([
        {
          sql: `INSERT INTO "api_keys" ("id", "organization_id", "project_id", "name", "prefix", "last_four", "secret_hash", "created_at", "updated_at") SELECT 'bulk_' || n, $1, $2, 'bulk', 'gak_', 'abcd', 'hash_' || n, now(), now() FROM generate_series(1, 1001) AS n`,
          args: [organizationId, projectId],
        },
      ]);
      const [bulk] = await readControlPlaneChanges(db, { afterVersion: String(version) });
      expect(bulk).toEqual({ version: String(version + 1), table: "api_keys", ids: null });
    }
    await db.runStatements(
      Array.from({ length: 1001 }, (_, index) => ({ sql: `UPDATE "projects" SET "name" = 'renamed ${index}' WHERE "id" = ${provider === "postgresql" ? "$1" : "?"}`, args: [projectId] })),
    );
    const latest = Number(await readControlPlaneVersion(db));
    const kept = await readControlPlaneChanges(db, { afterVersion: "0", limit: 5000 });
    expect(kept).toHaveLength(1000);
    expect(Number(kept[0]!.version)).toBe(latest - 999);
  });
});

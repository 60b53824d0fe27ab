// Hand-written SQL appended to every generated migration: any INSERT, UPDATE or DELETE on a
// control-plane table (also raw SQL from another process) bumps control_plane_version.version,
// which gateways poll to rebuild their in-memory snapshot.
import { readFileSync } from "node:fs";

/** Tables whose rows are part of the control-plane snapshot (or decide over it). */
export const CONTROL_PLANE_TABLES = [
  "organizations",
  "projects",
  "api_keys",
  "connections",
  "routes",
  "policies",
  "budgets",
  "rate_limits",
  "teams",
  "team_members",
  "mcp_servers",
  "mcp_tokens",
];

/** Per table, columns whose changes are NOT control-plane changes (written in the background). */
const IGNORED_COLUMNS = {
  api_keys: ["last_used_at", "updated_at"],
  mcp_tokens: ["last_used_at"],
};

/** Columns of `table` as created by the CREATE TABLE (and ALTERs) in the given SQL texts. */
function tableColumns(table, sqlTexts) {
  const columns = new Set();
  for (const sql of sqlTexts) {
    const create = new RegExp(`CREATE TABLE "(?:new_)?${table}" \\(([\\s\\S]*?)\\n\\);`).exec(sql);
    if (create) {
      columns.clear();
      for (const match of create[1].matchAll(/^\s+"([a-z_]+)" /gm)) columns.add(match[1]);
    }
    for (const match of sql.matchAll(new RegExp(`ALTER TABLE "${table}" ADD COLUMN "([a-z_]+)"`, "g"))) columns.add(match[1]);
    for (const match of sql.matchAll(new RegExp(`ALTER TABLE "${table}" DROP COLUMN "([a-z_]+)"`, "g"))) columns.delete(match[1]);
  }
  if (columns.size === 0) throw new Error(`control-plane triggers: no CREATE TABLE "${table}" found`);
  return [...columns];
}

/**
 * SQL that (re)creates the version row and the triggers. Idempotent, so every migration can
 * carry it (SQLite table redefinitions drop triggers).
 */
export function controlPlaneTriggerSql(provider, { previousMigrations, structural }) {
  const texts = [...previousMigrations.map((file) => readFileSync(file, "utf8")), structural];
  const watchedColumns = Object.fromEntries(
    Object.entries(IGNORED_COLUMNS).map(([table, ignored]) => [table, tableColumns(table, texts).filter((column) => !ignored.includes(column))]),
  );
  const lines = ["-- ControlPlaneVersion: hand-written by scripts/control-plane-triggers.mjs"];
  if (provider === "sqlite") {
    lines.push(`INSERT OR IGNORE INTO "control_plane_version" ("id", "version") VALUES (1, 1);`);
    for (const table of CONTROL_PLANE_TABLES) {
      for (const operation of ["INSERT", "UPDATE", "DELETE"]) {
        const triggerName = `${table}_control_plane_${operation.toLowerCase()}`;
        const event =
          operation === "UPDATE" && watchedColumns[table] !== undefined
            ? `UPDATE OF ${watchedColumns[table].map((column) => `"${column}"`).join(", ")}`
            : operation;
        lines.push(`DROP TRIGGER IF EXISTS "${triggerName}";`);
        lines.push(
          `CREATE TRIGGER "${triggerName}" AFTER ${event} ON "${table}" BEGIN UPDATE "control_plane_version" SET "version" = "version" + 1 WHERE "id" = 1; END;`,
        );
      }
    }
  } else {
    lines.push(`INSERT INTO "control_plane_version" ("id", "version") VALUES (1, 1) ON CONFLICT ("id") DO NOTHING;`);
    lines.push(
      `CREATE OR REPLACE FUNCTION "bump_control_plane_version"() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN UPDATE "control_plane_version" SET "version" = "version" + 1 WHERE "id" = 1; PERFORM pg_notify('gateway_control_plane', TG_TABLE_NAME); RETURN NULL; END; $$;`,
    );
    for (const table of CONTROL_PLANE_TABLES) {
      const triggerName = `${table}_control_plane`;
      lines.push(`DROP TRIGGER IF EXISTS "${triggerName}" ON "${table}";`);
      lines.push(`DROP TRIGGER IF EXISTS "${triggerName}_update" ON "${table}";`);
      const ignored = IGNORED_COLUMNS[table];
      if (ignored !== undefined) {
        const without = ignored.map((column) => `'${column}'`).join(" - ");
        lines.push(
          `CREATE TRIGGER "${triggerName}" AFTER INSERT OR DELETE OR TRUNCATE ON "${table}" FOR EACH STATEMENT EXECUTE FUNCTION "bump_control_plane_version"();`,
        );
        lines.push(
          `CREATE TRIGGER "${triggerName}_update" AFTER UPDATE ON "${table}" FOR EACH ROW WHEN ((to_jsonb(OLD) - ${without}) IS DISTINCT FROM (to_jsonb(NEW) - ${without})) EXECUTE FUNCTION "bump_control_plane_version"();`,
        );
      } else {
        lines.push(
          `CREATE TRIGGER "${triggerName}" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "${table}" FOR EACH STATEMENT EXECUTE FUNCTION "bump_control_plane_version"();`,
        );
      }
    }
  }
  return `${lines.join("\n")}\n`;
}

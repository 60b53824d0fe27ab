// Hand-written SQL appended to every generated migration: any INSERT, UPDATE or DELETE on a
// control-plane table (also raw SQL from another process) bumps control_plane_version.version,
// which gateways poll, and logs what changed in control_plane_changes, which gateways apply as deltas.
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

/** How many of the latest changes `control_plane_changes` keeps (a gateway further behind reloads whole). */
export const KEPT_CHANGES = 1000;
/** A statement changing more rows than this logs no ids: gateways reload that table whole. */
const MAX_LOGGED_IDS = 1000;
/** The PostgreSQL notification names at most this many ids (its payload is capped at 8000 bytes). */
const MAX_NOTIFIED_IDS = 100;

/**
 * SQL that (re)creates the version row and the triggers. Idempotent, so every migration can
 * carry it (SQLite table redefinitions drop triggers). Each change bumps the version and logs
 * (version, table, ids) in `control_plane_changes` in the same transaction: one row per
 * statement on PostgreSQL (statement triggers with transition tables; statements that change no
 * row log nothing), one per row on SQLite. PostgreSQL also NOTIFYs `gateway_control_plane` with
 * `{"schema","version","table","ids"}` (ids null when more than ${MAX_NOTIFIED_IDS}).
 */
export function controlPlaneTriggerSql(provider, { previousMigrations, structural }) {
  const texts = [...previousMigrations.map((file) => readFileSync(file, "utf8")), structural];
  const watchedColumns = Object.fromEntries(
    Object.entries(IGNORED_COLUMNS).map(([table, ignored]) => [table, tableColumns(table, texts).filter((column) => !ignored.includes(column))]),
  );
  const lines = ["-- ControlPlaneVersion and ControlPlaneChange: hand-written by scripts/control-plane-triggers.mjs"];
  if (provider === "sqlite") {
    lines.push(`INSERT OR IGNORE INTO "control_plane_version" ("id", "version") VALUES (1, 1);`);
    for (const table of CONTROL_PLANE_TABLES) {
      for (const operation of ["INSERT", "UPDATE", "DELETE"]) {
        const triggerName = `${table}_control_plane_${operation.toLowerCase()}`;
        const event =
          operation === "UPDATE" && watchedColumns[table] !== undefined
            ? `UPDATE OF ${watchedColumns[table].map((column) => `"${column}"`).join(", ")}`
            : operation;
        const ids =
          operation === "INSERT"
            ? `json_array(NEW."id")`
            : operation === "DELETE"
              ? `json_array(OLD."id")`
              : `CASE WHEN OLD."id" = NEW."id" THEN json_array(NEW."id") ELSE json_array(OLD."id", NEW."id") END`;
        lines.push(`DROP TRIGGER IF EXISTS "${triggerName}";`);
        lines.push(
          `CREATE TRIGGER "${triggerName}" AFTER ${event} ON "${table}" BEGIN ` +
            `UPDATE "control_plane_version" SET "version" = "version" + 1 WHERE "id" = 1; ` +
            `INSERT INTO "control_plane_changes" ("version", "table_name", "row_ids") SELECT "version", '${table}', ${ids} FROM "control_plane_version" WHERE "id" = 1; ` +
            `DELETE FROM "control_plane_changes" WHERE "version" <= (SELECT "version" - ${KEPT_CHANGES} FROM "control_plane_version" WHERE "id" = 1); ` +
            `END;`,
        );
      }
    }
  } else {
    lines.push(`INSERT INTO "control_plane_version" ("id", "version") VALUES (1, 1) ON CONFLICT ("id") DO NOTHING;`);
    // TG_ARGV, when given, lists columns whose changes alone are not control-plane changes (UPDATE only).
    lines.push(
      `CREATE OR REPLACE FUNCTION "record_control_plane_change"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  changed_ids jsonb;
  changed_count integer;
  next_version bigint;
BEGIN
  IF TG_OP = 'TRUNCATE' THEN
    changed_count := -1;
  ELSIF TG_OP = 'UPDATE' AND TG_NARGS > 0 THEN
    SELECT count(*), jsonb_agg(DISTINCT changed."id") INTO changed_count, changed_ids
      FROM "changed_rows" changed JOIN "previous_rows" previous ON previous."id" = changed."id"
      WHERE (to_jsonb(previous) - TG_ARGV) IS DISTINCT FROM (to_jsonb(changed) - TG_ARGV);
  ELSIF TG_OP = 'UPDATE' THEN
    SELECT count(*), jsonb_agg(DISTINCT all_ids."id") INTO changed_count, changed_ids
      FROM (SELECT "id" FROM "changed_rows" UNION SELECT "id" FROM "previous_rows") all_ids;
  ELSE
    SELECT count(*), jsonb_agg("id") INTO changed_count, changed_ids FROM "changed_rows";
  END IF;
  IF changed_count = 0 THEN RETURN NULL; END IF;
  UPDATE "control_plane_version" SET "version" = "version" + 1 WHERE "id" = 1 RETURNING "version" INTO next_version;
  INSERT INTO "control_plane_changes" ("version", "table_name", "row_ids")
    VALUES (next_version, TG_TABLE_NAME, CASE WHEN changed_count BETWEEN 1 AND ${MAX_LOGGED_IDS} THEN changed_ids::text END);
  DELETE FROM "control_plane_changes" WHERE "version" <= next_version - ${KEPT_CHANGES};
  PERFORM pg_notify('gateway_control_plane', json_build_object(
    'schema', TG_TABLE_SCHEMA, 'version', next_version::text, 'table', TG_TABLE_NAME,
    'ids', CASE WHEN changed_count BETWEEN 1 AND ${MAX_NOTIFIED_IDS} THEN changed_ids END)::text);
  RETURN NULL;
END; $$;`,
    );
    for (const table of CONTROL_PLANE_TABLES) {
      const triggerName = `${table}_control_plane`;
      // The triggers of earlier migrations (version bump only).
      lines.push(`DROP TRIGGER IF EXISTS "${triggerName}" ON "${table}";`);
      for (const operation of ["insert", "update", "delete", "truncate"]) lines.push(`DROP TRIGGER IF EXISTS "${triggerName}_${operation}" ON "${table}";`);
      const ignored = IGNORED_COLUMNS[table];
      const updateArguments = ignored === undefined ? "" : ignored.map((column) => `'${column}'`).join(", ");
      const run = (argumentsList = "") => `FOR EACH STATEMENT EXECUTE FUNCTION "record_control_plane_change"(${argumentsList});`;
      lines.push(`CREATE TRIGGER "${triggerName}_insert" AFTER INSERT ON "${table}" REFERENCING NEW TABLE AS "changed_rows" ${run()}`);
      lines.push(
        `CREATE TRIGGER "${triggerName}_update" AFTER UPDATE ON "${table}" REFERENCING OLD TABLE AS "previous_rows" NEW TABLE AS "changed_rows" ${run(updateArguments)}`,
      );
      lines.push(`CREATE TRIGGER "${triggerName}_delete" AFTER DELETE ON "${table}" REFERENCING OLD TABLE AS "changed_rows" ${run()}`);
      lines.push(`CREATE TRIGGER "${triggerName}_truncate" AFTER TRUNCATE ON "${table}" ${run()}`);
    }
    lines.push(`DROP FUNCTION IF EXISTS "bump_control_plane_version"();`);
  }
  return `${lines.join("\n")}\n`;
}

-- AlterTable
ALTER TABLE "connections" ADD COLUMN     "settings" JSONB NOT NULL DEFAULT '{}';

-- ControlPlaneVersion and ControlPlaneChange: hand-written by scripts/control-plane-triggers.mjs
INSERT INTO "control_plane_version" ("id", "version") VALUES (1, 1) ON CONFLICT ("id") DO NOTHING;
CREATE OR REPLACE FUNCTION "record_control_plane_change"() RETURNS trigger LANGUAGE plpgsql AS $$
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
    VALUES (next_version, TG_TABLE_NAME, CASE WHEN changed_count BETWEEN 1 AND 1000 THEN changed_ids::text END);
  DELETE FROM "control_plane_changes" WHERE "version" <= next_version - 1000;
  PERFORM pg_notify('gateway_control_plane', json_build_object(
    'schema', TG_TABLE_SCHEMA, 'version', next_version::text, 'table', TG_TABLE_NAME,
    'ids', CASE WHEN changed_count BETWEEN 1 AND 100 THEN changed_ids END)::text);
  RETURN NULL;
END; $$;
DROP TRIGGER IF EXISTS "organizations_control_plane" ON "organizations";
DROP TRIGGER IF EXISTS "organizations_control_plane_insert" ON "organizations";
DROP TRIGGER IF EXISTS "organizations_control_plane_update" ON "organizations";
DROP TRIGGER IF EXISTS "organizations_control_plane_delete" ON "organizations";
DROP TRIGGER IF EXISTS "organizations_control_plane_truncate" ON "organizations";
CREATE TRIGGER "organizations_control_plane_insert" AFTER INSERT ON "organizations" REFERENCING NEW TABLE AS "changed_rows" FOR EACH STATEMENT EXECUTE FUNCTION "record_control_plane_change"();
CREATE TRIGGER "organizations_control_plane_update" AFTER UPDATE ON "organizations" REFERENCING OLD TABLE AS "previous_rows" NEW TABLE AS "changed_rows" FOR EACH STATEMENT EXECUTE FUNCTION "record_control_plane_change"();
CREATE TRIGGER "organizations_control_plane_delete" AFTER DELETE ON "organizations" REFERENCING OLD TABLE AS "changed_rows" FOR EACH STATEMENT EXECUTE FUNCTION "record_control_plane_change"();
CREATE TRIGGER "organizations_control_plane_truncate" AFTER TRUNCATE ON "organizations" FOR EACH STATEMENT EXECUTE FUNCTION "record_control_plane_change"();
DROP TRIGGER IF EXISTS "projects_control_plane" ON "projects";
DROP TRIGGER IF EXISTS "projects_control_plane_insert" ON "projects";
DROP TRIGGER IF EXISTS "projects_control_plane_update" ON "projects";
DROP TRIGGER IF EXISTS "projects_control_plane_delete" ON "projects";
DROP TRIGGER IF EXISTS "projects_control_plane_truncate" ON "projects";
CREATE TRIGGER "projects_control_plane_insert" AFTER INSERT ON "projects" REFERENCING NEW TABLE AS "changed_rows" FOR EACH STATEMENT EXECUTE FUNCTION "record_control_plane_change"();
CREATE TRIGGER "projects_control_plane_update" AFTER UPDATE ON "projects" REFERENCING OLD TABLE AS "previous_rows" NEW TABLE AS "changed_rows" FOR EACH STATEMENT EXECUTE FUNCTION "record_control_plane_change"();
CREATE TRIGGER "projects_control_plane_delete" AFTER DELETE ON "projects" REFERENCING OLD TABLE AS "changed_rows" FOR EACH STATEMENT EXECUTE FUNCTION "record_control_plane_change"();
CREATE TRIGGER "projects_control_plane_truncate" AFTER TRUNCATE ON "projects" FOR EACH STATEMENT EXECUTE FUNCTION "record_control_plane_change"();
DROP TRIGGER IF EXISTS "api_keys_control_plane" ON "api_keys";
DROP TRIGGER IF EXISTS "api_keys_control_plane_insert" ON "api_keys";
DROP TRIGGER IF EXISTS "api_keys_control_plane_update" ON "api_keys";
DROP TRIGGER IF EXISTS "api_keys_control_plane_delete" ON "api_keys";
DROP TRIGGER IF EXISTS "api_keys_control_plane_truncate" ON "api_keys";
CREATE TRIGGER "api_keys_control_plane_insert" AFTER INSERT ON "api_keys" REFERENCING NEW TABLE AS "changed_rows" FOR EACH STATEMENT EXECUTE FUNCTION "record_control_plane_change"();
CREATE TRIGGER "api_keys_control_plane_update" AFTER UPDATE ON "api_keys" REFERENCING OLD TABLE AS "previous_rows" NEW TABLE AS "changed_rows" FOR EACH STATEMENT EXECUTE FUNCTION "record_control_plane_change"('last_used_at', 'updated_at');
CREATE TRIGGER "api_keys_control_plane_delete" AFTER DELETE ON "api_keys" REFERENCING OLD TABLE AS "changed_rows" FOR EACH STATEMENT EXECUTE FUNCTION "record_control_plane_change"();
CREATE TRIGGER "api_keys_control_plane_truncate" AFTER TRUNCATE ON "api_keys" FOR EACH STATEMENT EXECUTE FUNCTION "record_control_plane_change"();
DROP TRIGGER IF EXISTS "connections_control_plane" ON "connections";
DROP TRIGGER IF EXISTS "connections_control_plane_insert" ON "connections";
DROP TRIGGER IF EXISTS "connections_control_plane_update" ON "connections";
DROP TRIGGER IF EXISTS "connections_control_plane_delete" ON "connections";
DROP TRIGGER IF EXISTS "connections_control_plane_truncate" ON "connections";
CREATE TRIGGER "connections_control_plane_insert" AFTER INSERT ON "connections" REFERENCING NEW TABLE AS "changed_rows" FOR EACH STATEMENT EXECUTE FUNCTION "record_control_plane_change"();
CREATE TRIGGER "connections_control_plane_update" AFTER UPDATE ON "connections" REFERENCING OLD TABLE AS "previous_rows" NEW TABLE AS "changed_rows" FOR EACH STATEMENT EXECUTE FUNCTION "record_control_plane_change"();
CREATE TRIGGER "connections_control_plane_delete" AFTER DELETE ON "connections" REFERENCING OLD TABLE AS "changed_rows" FOR EACH STATEMENT EXECUTE FUNCTION "record_control_plane_change"();
CREATE TRIGGER "connections_control_plane_truncate" AFTER TRUNCATE ON "connections" FOR EACH STATEMENT EXECUTE FUNCTION "record_control_plane_change"();
DROP TRIGGER IF EXISTS "routes_control_plane" ON "routes";
DROP TRIGGER IF EXISTS "routes_control_plane_insert" ON "routes";
DROP TRIGGER IF EXISTS "routes_control_plane_update" ON "routes";
DROP TRIGGER IF EXISTS "routes_control_plane_delete" ON "routes";
DROP TRIGGER IF EXISTS "routes_control_plane_truncate" ON "routes";
CREATE TRIGGER "routes_control_plane_insert" AFTER INSERT ON "routes" REFERENCING NEW TABLE AS "changed_rows" FOR EACH STATEMENT EXECUTE FUNCTION "record_control_plane_change"();
CREATE TRIGGER "routes_control_plane_update" AFTER UPDATE ON "routes" REFERENCING OLD TABLE AS "previous_rows" NEW TABLE AS "changed_rows" FOR EACH STATEMENT EXECUTE FUNCTION "record_control_plane_change"();
CREATE TRIGGER "routes_control_plane_delete" AFTER DELETE ON "routes" REFERENCING OLD TABLE AS "changed_rows" FOR EACH STATEMENT EXECUTE FUNCTION "record_control_plane_change"();
CREATE TRIGGER "routes_control_plane_truncate" AFTER TRUNCATE ON "routes" FOR EACH STATEMENT EXECUTE FUNCTION "record_control_plane_change"();
DROP TRIGGER IF EXISTS "policies_control_plane" ON "policies";
DROP TRIGGER IF EXISTS "policies_control_plane_insert" ON "policies";
DROP TRIGGER IF EXISTS "policies_control_plane_update" ON "policies";
DROP TRIGGER IF EXISTS "policies_control_plane_delete" ON "policies";
DROP TRIGGER IF EXISTS "policies_control_plane_truncate" ON "policies";
CREATE TRIGGER "policies_control_plane_insert" AFTER INSERT ON "policies" REFERENCING NEW TABLE AS "changed_rows" FOR EACH STATEMENT EXECUTE FUNCTION "record_control_plane_change"();
CREATE TRIGGER "policies_control_plane_update" AFTER UPDATE ON "policies" REFERENCING OLD TABLE AS "previous_rows" NEW TABLE AS "changed_rows" FOR EACH STATEMENT EXECUTE FUNCTION "record_control_plane_change"();
CREATE TRIGGER "policies_control_plane_delete" AFTER DELETE ON "policies" REFERENCING OLD TABLE AS "changed_rows" FOR EACH STATEMENT EXECUTE FUNCTION "record_control_plane_change"();
CREATE TRIGGER "policies_control_plane_truncate" AFTER TRUNCATE ON "policies" FOR EACH STATEMENT EXECUTE FUNCTION "record_control_plane_change"();
DROP TRIGGER IF EXISTS "budgets_control_plane" ON "budgets";
DROP TRIGGER IF EXISTS "budgets_control_plane_insert" ON "budgets";
DROP TRIGGER IF EXISTS "budgets_control_plane_update" ON "budgets";
DROP TRIGGER IF EXISTS "budgets_control_plane_delete" ON "budgets";
DROP TRIGGER IF EXISTS "budgets_control_plane_truncate" ON "budgets";
CREATE TRIGGER "budgets_control_plane_insert" AFTER INSERT ON "budgets" REFERENCING NEW TABLE AS "changed_rows" FOR EACH STATEMENT EXECUTE FUNCTION "record_control_plane_change"();
CREATE TRIGGER "budgets_control_plane_update" AFTER UPDATE ON "budgets" REFERENCING OLD TABLE AS "previous_rows" NEW TABLE AS "changed_rows" FOR EACH STATEMENT EXECUTE FUNCTION "record_control_plane_change"();
CREATE TRIGGER "budgets_control_plane_delete" AFTER DELETE ON "budgets" REFERENCING OLD TABLE AS "changed_rows" FOR EACH STATEMENT EXECUTE FUNCTION "record_control_plane_change"();
CREATE TRIGGER "budgets_control_plane_truncate" AFTER TRUNCATE ON "budgets" FOR EACH STATEMENT EXECUTE FUNCTION "record_control_plane_change"();
DROP TRIGGER IF EXISTS "rate_limits_control_plane" ON "rate_limits";
DROP TRIGGER IF EXISTS "rate_limits_control_plane_insert" ON "rate_limits";
DROP TRIGGER IF EXISTS "rate_limits_control_plane_update" ON "rate_limits";
DROP TRIGGER IF EXISTS "rate_limits_control_plane_delete" ON "rate_limits";
DROP TRIGGER IF EXISTS "rate_limits_control_plane_truncate" ON "rate_limits";
CREATE TRIGGER "rate_limits_control_plane_insert" AFTER INSERT ON "rate_limits" REFERENCING NEW TABLE AS "changed_rows" FOR EACH STATEMENT EXECUTE FUNCTION "record_control_plane_change"();
CREATE TRIGGER "rate_limits_control_plane_update" AFTER UPDATE ON "rate_limits" REFERENCING OLD TABLE AS "previous_rows" NEW TABLE AS "changed_rows" FOR EACH STATEMENT EXECUTE FUNCTION "record_control_plane_change"();
CREATE TRIGGER "rate_limits_control_plane_delete" AFTER DELETE ON "rate_limits" REFERENCING OLD TABLE AS "changed_rows" FOR EACH STATEMENT EXECUTE FUNCTION "record_control_plane_change"();
CREATE TRIGGER "rate_limits_control_plane_truncate" AFTER TRUNCATE ON "rate_limits" FOR EACH STATEMENT EXECUTE FUNCTION "record_control_plane_change"();
DROP TRIGGER IF EXISTS "teams_control_plane" ON "teams";
DROP TRIGGER IF EXISTS "teams_control_plane_insert" ON "teams";
DROP TRIGGER IF EXISTS "teams_control_plane_update" ON "teams";
DROP TRIGGER IF EXISTS "teams_control_plane_delete" ON "teams";
DROP TRIGGER IF EXISTS "teams_control_plane_truncate" ON "teams";
CREATE TRIGGER "teams_control_plane_insert" AFTER INSERT ON "teams" REFERENCING NEW TABLE AS "changed_rows" FOR EACH STATEMENT EXECUTE FUNCTION "record_control_plane_change"();
CREATE TRIGGER "teams_control_plane_update" AFTER UPDATE ON "teams" REFERENCING OLD TABLE AS "previous_rows" NEW TABLE AS "changed_rows" FOR EACH STATEMENT EXECUTE FUNCTION "record_control_plane_change"();
CREATE TRIGGER "teams_control_plane_delete" AFTER DELETE ON "teams" REFERENCING OLD TABLE AS "changed_rows" FOR EACH STATEMENT EXECUTE FUNCTION "record_control_plane_change"();
CREATE TRIGGER "teams_control_plane_truncate" AFTER TRUNCATE ON "teams" FOR EACH STATEMENT EXECUTE FUNCTION "record_control_plane_change"();
DROP TRIGGER IF EXISTS "team_members_control_plane" ON "team_members";
DROP TRIGGER IF EXISTS "team_members_control_plane_insert" ON "team_members";
DROP TRIGGER IF EXISTS "team_members_control_plane_update" ON "team_members";
DROP TRIGGER IF EXISTS "team_members_control_plane_delete" ON "team_members";
DROP TRIGGER IF EXISTS "team_members_control_plane_truncate" ON "team_members";
CREATE TRIGGER "team_members_control_plane_insert" AFTER INSERT ON "team_members" REFERENCING NEW TABLE AS "changed_rows" FOR EACH STATEMENT EXECUTE FUNCTION "record_control_plane_change"();
CREATE TRIGGER "team_members_control_plane_update" AFTER UPDATE ON "team_members" REFERENCING OLD TABLE AS "previous_rows" NEW TABLE AS "changed_rows" FOR EACH STATEMENT EXECUTE FUNCTION "record_control_plane_change"();
CREATE TRIGGER "team_members_control_plane_delete" AFTER DELETE ON "team_members" REFERENCING OLD TABLE AS "changed_rows" FOR EACH STATEMENT EXECUTE FUNCTION "record_control_plane_change"();
CREATE TRIGGER "team_members_control_plane_truncate" AFTER TRUNCATE ON "team_members" FOR EACH STATEMENT EXECUTE FUNCTION "record_control_plane_change"();
DROP TRIGGER IF EXISTS "mcp_servers_control_plane" ON "mcp_servers";
DROP TRIGGER IF EXISTS "mcp_servers_control_plane_insert" ON "mcp_servers";
DROP TRIGGER IF EXISTS "mcp_servers_control_plane_update" ON "mcp_servers";
DROP TRIGGER IF EXISTS "mcp_servers_control_plane_delete" ON "mcp_servers";
DROP TRIGGER IF EXISTS "mcp_servers_control_plane_truncate" ON "mcp_servers";
CREATE TRIGGER "mcp_servers_control_plane_insert" AFTER INSERT ON "mcp_servers" REFERENCING NEW TABLE AS "changed_rows" FOR EACH STATEMENT EXECUTE FUNCTION "record_control_plane_change"();
CREATE TRIGGER "mcp_servers_control_plane_update" AFTER UPDATE ON "mcp_servers" REFERENCING OLD TABLE AS "previous_rows" NEW TABLE AS "changed_rows" FOR EACH STATEMENT EXECUTE FUNCTION "record_control_plane_change"();
CREATE TRIGGER "mcp_servers_control_plane_delete" AFTER DELETE ON "mcp_servers" REFERENCING OLD TABLE AS "changed_rows" FOR EACH STATEMENT EXECUTE FUNCTION "record_control_plane_change"();
CREATE TRIGGER "mcp_servers_control_plane_truncate" AFTER TRUNCATE ON "mcp_servers" FOR EACH STATEMENT EXECUTE FUNCTION "record_control_plane_change"();
DROP TRIGGER IF EXISTS "mcp_tokens_control_plane" ON "mcp_tokens";
DROP TRIGGER IF EXISTS "mcp_tokens_control_plane_insert" ON "mcp_tokens";
DROP TRIGGER IF EXISTS "mcp_tokens_control_plane_update" ON "mcp_tokens";
DROP TRIGGER IF EXISTS "mcp_tokens_control_plane_delete" ON "mcp_tokens";
DROP TRIGGER IF EXISTS "mcp_tokens_control_plane_truncate" ON "mcp_tokens";
CREATE TRIGGER "mcp_tokens_control_plane_insert" AFTER INSERT ON "mcp_tokens" REFERENCING NEW TABLE AS "changed_rows" FOR EACH STATEMENT EXECUTE FUNCTION "record_control_plane_change"();
CREATE TRIGGER "mcp_tokens_control_plane_update" AFTER UPDATE ON "mcp_tokens" REFERENCING OLD TABLE AS "previous_rows" NEW TABLE AS "changed_rows" FOR EACH STATEMENT EXECUTE FUNCTION "record_control_plane_change"('last_used_at');
CREATE TRIGGER "mcp_tokens_control_plane_delete" AFTER DELETE ON "mcp_tokens" REFERENCING OLD TABLE AS "changed_rows" FOR EACH STATEMENT EXECUTE FUNCTION "record_control_plane_change"();
CREATE TRIGGER "mcp_tokens_control_plane_truncate" AFTER TRUNCATE ON "mcp_tokens" FOR EACH STATEMENT EXECUTE FUNCTION "record_control_plane_change"();
DROP FUNCTION IF EXISTS "bump_control_plane_version"();

-- AlterTable
ALTER TABLE "budgets" ADD COLUMN     "spend_reset_at" TIMESTAMP(3),
ADD COLUMN     "spend_reset_baseline_micros" BIGINT NOT NULL DEFAULT 0,
ADD COLUMN     "spend_reset_period_key" TEXT;

-- ControlPlaneVersion: hand-written by scripts/control-plane-triggers.mjs
INSERT INTO "control_plane_version" ("id", "version") VALUES (1, 1) ON CONFLICT ("id") DO NOTHING;
CREATE OR REPLACE FUNCTION "bump_control_plane_version"() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN UPDATE "control_plane_version" SET "version" = "version" + 1 WHERE "id" = 1; PERFORM pg_notify('gateway_control_plane', TG_TABLE_NAME); RETURN NULL; END; $$;
DROP TRIGGER IF EXISTS "organizations_control_plane" ON "organizations";
DROP TRIGGER IF EXISTS "organizations_control_plane_update" ON "organizations";
CREATE TRIGGER "organizations_control_plane" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "organizations" FOR EACH STATEMENT EXECUTE FUNCTION "bump_control_plane_version"();
DROP TRIGGER IF EXISTS "projects_control_plane" ON "projects";
DROP TRIGGER IF EXISTS "projects_control_plane_update" ON "projects";
CREATE TRIGGER "projects_control_plane" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "projects" FOR EACH STATEMENT EXECUTE FUNCTION "bump_control_plane_version"();
DROP TRIGGER IF EXISTS "api_keys_control_plane" ON "api_keys";
DROP TRIGGER IF EXISTS "api_keys_control_plane_update" ON "api_keys";
CREATE TRIGGER "api_keys_control_plane" AFTER INSERT OR DELETE OR TRUNCATE ON "api_keys" FOR EACH STATEMENT EXECUTE FUNCTION "bump_control_plane_version"();
CREATE TRIGGER "api_keys_control_plane_update" AFTER UPDATE ON "api_keys" FOR EACH ROW WHEN ((to_jsonb(OLD) - 'last_used_at' - 'updated_at') IS DISTINCT FROM (to_jsonb(NEW) - 'last_used_at' - 'updated_at')) EXECUTE FUNCTION "bump_control_plane_version"();
DROP TRIGGER IF EXISTS "connections_control_plane" ON "connections";
DROP TRIGGER IF EXISTS "connections_control_plane_update" ON "connections";
CREATE TRIGGER "connections_control_plane" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "connections" FOR EACH STATEMENT EXECUTE FUNCTION "bump_control_plane_version"();
DROP TRIGGER IF EXISTS "routes_control_plane" ON "routes";
DROP TRIGGER IF EXISTS "routes_control_plane_update" ON "routes";
CREATE TRIGGER "routes_control_plane" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "routes" FOR EACH STATEMENT EXECUTE FUNCTION "bump_control_plane_version"();
DROP TRIGGER IF EXISTS "policies_control_plane" ON "policies";
DROP TRIGGER IF EXISTS "policies_control_plane_update" ON "policies";
CREATE TRIGGER "policies_control_plane" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "policies" FOR EACH STATEMENT EXECUTE FUNCTION "bump_control_plane_version"();
DROP TRIGGER IF EXISTS "budgets_control_plane" ON "budgets";
DROP TRIGGER IF EXISTS "budgets_control_plane_update" ON "budgets";
CREATE TRIGGER "budgets_control_plane" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "budgets" FOR EACH STATEMENT EXECUTE FUNCTION "bump_control_plane_version"();
DROP TRIGGER IF EXISTS "rate_limits_control_plane" ON "rate_limits";
DROP TRIGGER IF EXISTS "rate_limits_control_plane_update" ON "rate_limits";
CREATE TRIGGER "rate_limits_control_plane" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "rate_limits" FOR EACH STATEMENT EXECUTE FUNCTION "bump_control_plane_version"();
DROP TRIGGER IF EXISTS "teams_control_plane" ON "teams";
DROP TRIGGER IF EXISTS "teams_control_plane_update" ON "teams";
CREATE TRIGGER "teams_control_plane" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "teams" FOR EACH STATEMENT EXECUTE FUNCTION "bump_control_plane_version"();
DROP TRIGGER IF EXISTS "team_members_control_plane" ON "team_members";
DROP TRIGGER IF EXISTS "team_members_control_plane_update" ON "team_members";
CREATE TRIGGER "team_members_control_plane" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "team_members" FOR EACH STATEMENT EXECUTE FUNCTION "bump_control_plane_version"();
DROP TRIGGER IF EXISTS "mcp_servers_control_plane" ON "mcp_servers";
DROP TRIGGER IF EXISTS "mcp_servers_control_plane_update" ON "mcp_servers";
CREATE TRIGGER "mcp_servers_control_plane" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "mcp_servers" FOR EACH STATEMENT EXECUTE FUNCTION "bump_control_plane_version"();
DROP TRIGGER IF EXISTS "mcp_tokens_control_plane" ON "mcp_tokens";
DROP TRIGGER IF EXISTS "mcp_tokens_control_plane_update" ON "mcp_tokens";
CREATE TRIGGER "mcp_tokens_control_plane" AFTER INSERT OR DELETE OR TRUNCATE ON "mcp_tokens" FOR EACH STATEMENT EXECUTE FUNCTION "bump_control_plane_version"();
CREATE TRIGGER "mcp_tokens_control_plane_update" AFTER UPDATE ON "mcp_tokens" FOR EACH ROW WHEN ((to_jsonb(OLD) - 'last_used_at') IS DISTINCT FROM (to_jsonb(NEW) - 'last_used_at')) EXECUTE FUNCTION "bump_control_plane_version"();

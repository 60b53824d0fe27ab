-- CreateTable
CREATE TABLE "usage_organization_hourly_rollups" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "organization_id" TEXT NOT NULL,
    "hour" DATETIME NOT NULL,
    "model" TEXT NOT NULL,
    "request_count" BIGINT NOT NULL,
    "error_count" BIGINT NOT NULL,
    "input_tokens" BIGINT NOT NULL,
    "output_tokens" BIGINT NOT NULL,
    "cache_read_tokens" BIGINT NOT NULL,
    "cache_write_tokens" BIGINT NOT NULL,
    "cost_micros" BIGINT NOT NULL,
    "latency_ms_sum" BIGINT NOT NULL,
    "latency_count" BIGINT NOT NULL,
    "latency_ms_max" BIGINT NOT NULL,
    "time_to_first_byte_ms_sum" BIGINT NOT NULL,
    "time_to_first_byte_count" BIGINT NOT NULL,
    "latency_bucket_0" BIGINT NOT NULL DEFAULT 0,
    "latency_bucket_1" BIGINT NOT NULL DEFAULT 0,
    "latency_bucket_2" BIGINT NOT NULL DEFAULT 0,
    "latency_bucket_3" BIGINT NOT NULL DEFAULT 0,
    "latency_bucket_4" BIGINT NOT NULL DEFAULT 0,
    "latency_bucket_5" BIGINT NOT NULL DEFAULT 0,
    "latency_bucket_6" BIGINT NOT NULL DEFAULT 0,
    "latency_bucket_7" BIGINT NOT NULL DEFAULT 0,
    "latency_bucket_8" BIGINT NOT NULL DEFAULT 0,
    "latency_bucket_9" BIGINT NOT NULL DEFAULT 0,
    "latency_bucket_10" BIGINT NOT NULL DEFAULT 0,
    "latency_bucket_11" BIGINT NOT NULL DEFAULT 0,
    "latency_bucket_12" BIGINT NOT NULL DEFAULT 0,
    "latency_bucket_13" BIGINT NOT NULL DEFAULT 0,
    "latency_bucket_14" BIGINT NOT NULL DEFAULT 0,
    "latency_bucket_15" BIGINT NOT NULL DEFAULT 0,
    "latency_bucket_16" BIGINT NOT NULL DEFAULT 0,
    "updated_at" DATETIME NOT NULL
);

-- CreateIndex
CREATE UNIQUE INDEX "usage_organization_hourly_rollups_natural_key" ON "usage_organization_hourly_rollups"("organization_id", "hour", "model");

-- Hand-written: the organization rollups of the usage recorded so far, from the hourly rollups
-- (they hold every recorded call; raw events past their retention are gone).
INSERT INTO "usage_organization_hourly_rollups" ("id", "organization_id", "hour", "model", "request_count", "error_count", "input_tokens", "output_tokens", "cache_read_tokens", "cache_write_tokens", "cost_micros", "latency_ms_sum", "latency_count", "latency_ms_max", "time_to_first_byte_ms_sum", "time_to_first_byte_count", "latency_bucket_0", "latency_bucket_1", "latency_bucket_2", "latency_bucket_3", "latency_bucket_4", "latency_bucket_5", "latency_bucket_6", "latency_bucket_7", "latency_bucket_8", "latency_bucket_9", "latency_bucket_10", "latency_bucket_11", "latency_bucket_12", "latency_bucket_13", "latency_bucket_14", "latency_bucket_15", "latency_bucket_16", "updated_at")
SELECT lower(hex(randomblob(12))), "organization_id", "hour", "model", SUM("request_count"), SUM("error_count"), SUM("input_tokens"), SUM("output_tokens"), SUM("cache_read_tokens"), SUM("cache_write_tokens"), SUM("cost_micros"), SUM("latency_ms_sum"), SUM("latency_count"), MAX("latency_ms_max"), SUM("time_to_first_byte_ms_sum"), SUM("time_to_first_byte_count"), SUM("latency_bucket_0"), SUM("latency_bucket_1"), SUM("latency_bucket_2"), SUM("latency_bucket_3"), SUM("latency_bucket_4"), SUM("latency_bucket_5"), SUM("latency_bucket_6"), SUM("latency_bucket_7"), SUM("latency_bucket_8"), SUM("latency_bucket_9"), SUM("latency_bucket_10"), SUM("latency_bucket_11"), SUM("latency_bucket_12"), SUM("latency_bucket_13"), SUM("latency_bucket_14"), SUM("latency_bucket_15"), SUM("latency_bucket_16"), strftime('%Y-%m-%dT%H:%M:%f', 'now') || '+00:00'
FROM "usage_hourly_rollups"
GROUP BY "organization_id", "hour", "model";

-- ControlPlaneVersion and ControlPlaneChange: hand-written by scripts/control-plane-triggers.mjs
INSERT OR IGNORE INTO "control_plane_version" ("id", "version") VALUES (1, 1);
DROP TRIGGER IF EXISTS "organizations_control_plane_insert";
CREATE TRIGGER "organizations_control_plane_insert" AFTER INSERT ON "organizations" BEGIN UPDATE "control_plane_version" SET "version" = "version" + 1 WHERE "id" = 1; INSERT INTO "control_plane_changes" ("version", "table_name", "row_ids") SELECT "version", 'organizations', json_array(NEW."id") FROM "control_plane_version" WHERE "id" = 1; DELETE FROM "control_plane_changes" WHERE "version" <= (SELECT "version" - 1000 FROM "control_plane_version" WHERE "id" = 1); END;
DROP TRIGGER IF EXISTS "organizations_control_plane_update";
CREATE TRIGGER "organizations_control_plane_update" AFTER UPDATE ON "organizations" BEGIN UPDATE "control_plane_version" SET "version" = "version" + 1 WHERE "id" = 1; INSERT INTO "control_plane_changes" ("version", "table_name", "row_ids") SELECT "version", 'organizations', CASE WHEN OLD."id" = NEW."id" THEN json_array(NEW."id") ELSE json_array(OLD."id", NEW."id") END FROM "control_plane_version" WHERE "id" = 1; DELETE FROM "control_plane_changes" WHERE "version" <= (SELECT "version" - 1000 FROM "control_plane_version" WHERE "id" = 1); END;
DROP TRIGGER IF EXISTS "organizations_control_plane_delete";
CREATE TRIGGER "organizations_control_plane_delete" AFTER DELETE ON "organizations" BEGIN UPDATE "control_plane_version" SET "version" = "version" + 1 WHERE "id" = 1; INSERT INTO "control_plane_changes" ("version", "table_name", "row_ids") SELECT "version", 'organizations', json_array(OLD."id") FROM "control_plane_version" WHERE "id" = 1; DELETE FROM "control_plane_changes" WHERE "version" <= (SELECT "version" - 1000 FROM "control_plane_version" WHERE "id" = 1); END;
DROP TRIGGER IF EXISTS "projects_control_plane_insert";
CREATE TRIGGER "projects_control_plane_insert" AFTER INSERT ON "projects" BEGIN UPDATE "control_plane_version" SET "version" = "version" + 1 WHERE "id" = 1; INSERT INTO "control_plane_changes" ("version", "table_name", "row_ids") SELECT "version", 'projects', json_array(NEW."id") FROM "control_plane_version" WHERE "id" = 1; DELETE FROM "control_plane_changes" WHERE "version" <= (SELECT "version" - 1000 FROM "control_plane_version" WHERE "id" = 1); END;
DROP TRIGGER IF EXISTS "projects_control_plane_update";
CREATE TRIGGER "projects_control_plane_update" AFTER UPDATE ON "projects" BEGIN UPDATE "control_plane_version" SET "version" = "version" + 1 WHERE "id" = 1; INSERT INTO "control_plane_changes" ("version", "table_name", "row_ids") SELECT "version", 'projects', CASE WHEN OLD."id" = NEW."id" THEN json_array(NEW."id") ELSE json_array(OLD."id", NEW."id") END FROM "control_plane_version" WHERE "id" = 1; DELETE FROM "control_plane_changes" WHERE "version" <= (SELECT "version" - 1000 FROM "control_plane_version" WHERE "id" = 1); END;
DROP TRIGGER IF EXISTS "projects_control_plane_delete";
CREATE TRIGGER "projects_control_plane_delete" AFTER DELETE ON "projects" BEGIN UPDATE "control_plane_version" SET "version" = "version" + 1 WHERE "id" = 1; INSERT INTO "control_plane_changes" ("version", "table_name", "row_ids") SELECT "version", 'projects', json_array(OLD."id") FROM "control_plane_version" WHERE "id" = 1; DELETE FROM "control_plane_changes" WHERE "version" <= (SELECT "version" - 1000 FROM "control_plane_version" WHERE "id" = 1); END;
DROP TRIGGER IF EXISTS "api_keys_control_plane_insert";
CREATE TRIGGER "api_keys_control_plane_insert" AFTER INSERT ON "api_keys" BEGIN UPDATE "control_plane_version" SET "version" = "version" + 1 WHERE "id" = 1; INSERT INTO "control_plane_changes" ("version", "table_name", "row_ids") SELECT "version", 'api_keys', json_array(NEW."id") FROM "control_plane_version" WHERE "id" = 1; DELETE FROM "control_plane_changes" WHERE "version" <= (SELECT "version" - 1000 FROM "control_plane_version" WHERE "id" = 1); END;
DROP TRIGGER IF EXISTS "api_keys_control_plane_update";
CREATE TRIGGER "api_keys_control_plane_update" AFTER UPDATE OF "id", "organization_id", "project_id", "team_id", "name", "prefix", "last_four", "secret_hash", "created_by_user_id", "created_at", "expires_at", "revoked_at", "revoked_by_user_id", "default_metadata" ON "api_keys" BEGIN UPDATE "control_plane_version" SET "version" = "version" + 1 WHERE "id" = 1; INSERT INTO "control_plane_changes" ("version", "table_name", "row_ids") SELECT "version", 'api_keys', CASE WHEN OLD."id" = NEW."id" THEN json_array(NEW."id") ELSE json_array(OLD."id", NEW."id") END FROM "control_plane_version" WHERE "id" = 1; DELETE FROM "control_plane_changes" WHERE "version" <= (SELECT "version" - 1000 FROM "control_plane_version" WHERE "id" = 1); END;
DROP TRIGGER IF EXISTS "api_keys_control_plane_delete";
CREATE TRIGGER "api_keys_control_plane_delete" AFTER DELETE ON "api_keys" BEGIN UPDATE "control_plane_version" SET "version" = "version" + 1 WHERE "id" = 1; INSERT INTO "control_plane_changes" ("version", "table_name", "row_ids") SELECT "version", 'api_keys', json_array(OLD."id") FROM "control_plane_version" WHERE "id" = 1; DELETE FROM "control_plane_changes" WHERE "version" <= (SELECT "version" - 1000 FROM "control_plane_version" WHERE "id" = 1); END;
DROP TRIGGER IF EXISTS "connections_control_plane_insert";
CREATE TRIGGER "connections_control_plane_insert" AFTER INSERT ON "connections" BEGIN UPDATE "control_plane_version" SET "version" = "version" + 1 WHERE "id" = 1; INSERT INTO "control_plane_changes" ("version", "table_name", "row_ids") SELECT "version", 'connections', json_array(NEW."id") FROM "control_plane_version" WHERE "id" = 1; DELETE FROM "control_plane_changes" WHERE "version" <= (SELECT "version" - 1000 FROM "control_plane_version" WHERE "id" = 1); END;
DROP TRIGGER IF EXISTS "connections_control_plane_update";
CREATE TRIGGER "connections_control_plane_update" AFTER UPDATE ON "connections" BEGIN UPDATE "control_plane_version" SET "version" = "version" + 1 WHERE "id" = 1; INSERT INTO "control_plane_changes" ("version", "table_name", "row_ids") SELECT "version", 'connections', CASE WHEN OLD."id" = NEW."id" THEN json_array(NEW."id") ELSE json_array(OLD."id", NEW."id") END FROM "control_plane_version" WHERE "id" = 1; DELETE FROM "control_plane_changes" WHERE "version" <= (SELECT "version" - 1000 FROM "control_plane_version" WHERE "id" = 1); END;
DROP TRIGGER IF EXISTS "connections_control_plane_delete";
CREATE TRIGGER "connections_control_plane_delete" AFTER DELETE ON "connections" BEGIN UPDATE "control_plane_version" SET "version" = "version" + 1 WHERE "id" = 1; INSERT INTO "control_plane_changes" ("version", "table_name", "row_ids") SELECT "version", 'connections', json_array(OLD."id") FROM "control_plane_version" WHERE "id" = 1; DELETE FROM "control_plane_changes" WHERE "version" <= (SELECT "version" - 1000 FROM "control_plane_version" WHERE "id" = 1); END;
DROP TRIGGER IF EXISTS "routes_control_plane_insert";
CREATE TRIGGER "routes_control_plane_insert" AFTER INSERT ON "routes" BEGIN UPDATE "control_plane_version" SET "version" = "version" + 1 WHERE "id" = 1; INSERT INTO "control_plane_changes" ("version", "table_name", "row_ids") SELECT "version", 'routes', json_array(NEW."id") FROM "control_plane_version" WHERE "id" = 1; DELETE FROM "control_plane_changes" WHERE "version" <= (SELECT "version" - 1000 FROM "control_plane_version" WHERE "id" = 1); END;
DROP TRIGGER IF EXISTS "routes_control_plane_update";
CREATE TRIGGER "routes_control_plane_update" AFTER UPDATE ON "routes" BEGIN UPDATE "control_plane_version" SET "version" = "version" + 1 WHERE "id" = 1; INSERT INTO "control_plane_changes" ("version", "table_name", "row_ids") SELECT "version", 'routes', CASE WHEN OLD."id" = NEW."id" THEN json_array(NEW."id") ELSE json_array(OLD."id", NEW."id") END FROM "control_plane_version" WHERE "id" = 1; DELETE FROM "control_plane_changes" WHERE "version" <= (SELECT "version" - 1000 FROM "control_plane_version" WHERE "id" = 1); END;
DROP TRIGGER IF EXISTS "routes_control_plane_delete";
CREATE TRIGGER "routes_control_plane_delete" AFTER DELETE ON "routes" BEGIN UPDATE "control_plane_version" SET "version" = "version" + 1 WHERE "id" = 1; INSERT INTO "control_plane_changes" ("version", "table_name", "row_ids") SELECT "version", 'routes', json_array(OLD."id") FROM "control_plane_version" WHERE "id" = 1; DELETE FROM "control_plane_changes" WHERE "version" <= (SELECT "version" - 1000 FROM "control_plane_version" WHERE "id" = 1); END;
DROP TRIGGER IF EXISTS "policies_control_plane_insert";
CREATE TRIGGER "policies_control_plane_insert" AFTER INSERT ON "policies" BEGIN UPDATE "control_plane_version" SET "version" = "version" + 1 WHERE "id" = 1; INSERT INTO "control_plane_changes" ("version", "table_name", "row_ids") SELECT "version", 'policies', json_array(NEW."id") FROM "control_plane_version" WHERE "id" = 1; DELETE FROM "control_plane_changes" WHERE "version" <= (SELECT "version" - 1000 FROM "control_plane_version" WHERE "id" = 1); END;
DROP TRIGGER IF EXISTS "policies_control_plane_update";
CREATE TRIGGER "policies_control_plane_update" AFTER UPDATE ON "policies" BEGIN UPDATE "control_plane_version" SET "version" = "version" + 1 WHERE "id" = 1; INSERT INTO "control_plane_changes" ("version", "table_name", "row_ids") SELECT "version", 'policies', CASE WHEN OLD."id" = NEW."id" THEN json_array(NEW."id") ELSE json_array(OLD."id", NEW."id") END FROM "control_plane_version" WHERE "id" = 1; DELETE FROM "control_plane_changes" WHERE "version" <= (SELECT "version" - 1000 FROM "control_plane_version" WHERE "id" = 1); END;
DROP TRIGGER IF EXISTS "policies_control_plane_delete";
CREATE TRIGGER "policies_control_plane_delete" AFTER DELETE ON "policies" BEGIN UPDATE "control_plane_version" SET "version" = "version" + 1 WHERE "id" = 1; INSERT INTO "control_plane_changes" ("version", "table_name", "row_ids") SELECT "version", 'policies', json_array(OLD."id") FROM "control_plane_version" WHERE "id" = 1; DELETE FROM "control_plane_changes" WHERE "version" <= (SELECT "version" - 1000 FROM "control_plane_version" WHERE "id" = 1); END;
DROP TRIGGER IF EXISTS "budgets_control_plane_insert";
CREATE TRIGGER "budgets_control_plane_insert" AFTER INSERT ON "budgets" BEGIN UPDATE "control_plane_version" SET "version" = "version" + 1 WHERE "id" = 1; INSERT INTO "control_plane_changes" ("version", "table_name", "row_ids") SELECT "version", 'budgets', json_array(NEW."id") FROM "control_plane_version" WHERE "id" = 1; DELETE FROM "control_plane_changes" WHERE "version" <= (SELECT "version" - 1000 FROM "control_plane_version" WHERE "id" = 1); END;
DROP TRIGGER IF EXISTS "budgets_control_plane_update";
CREATE TRIGGER "budgets_control_plane_update" AFTER UPDATE ON "budgets" BEGIN UPDATE "control_plane_version" SET "version" = "version" + 1 WHERE "id" = 1; INSERT INTO "control_plane_changes" ("version", "table_name", "row_ids") SELECT "version", 'budgets', CASE WHEN OLD."id" = NEW."id" THEN json_array(NEW."id") ELSE json_array(OLD."id", NEW."id") END FROM "control_plane_version" WHERE "id" = 1; DELETE FROM "control_plane_changes" WHERE "version" <= (SELECT "version" - 1000 FROM "control_plane_version" WHERE "id" = 1); END;
DROP TRIGGER IF EXISTS "budgets_control_plane_delete";
CREATE TRIGGER "budgets_control_plane_delete" AFTER DELETE ON "budgets" BEGIN UPDATE "control_plane_version" SET "version" = "version" + 1 WHERE "id" = 1; INSERT INTO "control_plane_changes" ("version", "table_name", "row_ids") SELECT "version", 'budgets', json_array(OLD."id") FROM "control_plane_version" WHERE "id" = 1; DELETE FROM "control_plane_changes" WHERE "version" <= (SELECT "version" - 1000 FROM "control_plane_version" WHERE "id" = 1); END;
DROP TRIGGER IF EXISTS "rate_limits_control_plane_insert";
CREATE TRIGGER "rate_limits_control_plane_insert" AFTER INSERT ON "rate_limits" BEGIN UPDATE "control_plane_version" SET "version" = "version" + 1 WHERE "id" = 1; INSERT INTO "control_plane_changes" ("version", "table_name", "row_ids") SELECT "version", 'rate_limits', json_array(NEW."id") FROM "control_plane_version" WHERE "id" = 1; DELETE FROM "control_plane_changes" WHERE "version" <= (SELECT "version" - 1000 FROM "control_plane_version" WHERE "id" = 1); END;
DROP TRIGGER IF EXISTS "rate_limits_control_plane_update";
CREATE TRIGGER "rate_limits_control_plane_update" AFTER UPDATE ON "rate_limits" BEGIN UPDATE "control_plane_version" SET "version" = "version" + 1 WHERE "id" = 1; INSERT INTO "control_plane_changes" ("version", "table_name", "row_ids") SELECT "version", 'rate_limits', CASE WHEN OLD."id" = NEW."id" THEN json_array(NEW."id") ELSE json_array(OLD."id", NEW."id") END FROM "control_plane_version" WHERE "id" = 1; DELETE FROM "control_plane_changes" WHERE "version" <= (SELECT "version" - 1000 FROM "control_plane_version" WHERE "id" = 1); END;
DROP TRIGGER IF EXISTS "rate_limits_control_plane_delete";
CREATE TRIGGER "rate_limits_control_plane_delete" AFTER DELETE ON "rate_limits" BEGIN UPDATE "control_plane_version" SET "version" = "version" + 1 WHERE "id" = 1; INSERT INTO "control_plane_changes" ("version", "table_name", "row_ids") SELECT "version", 'rate_limits', json_array(OLD."id") FROM "control_plane_version" WHERE "id" = 1; DELETE FROM "control_plane_changes" WHERE "version" <= (SELECT "version" - 1000 FROM "control_plane_version" WHERE "id" = 1); END;
DROP TRIGGER IF EXISTS "teams_control_plane_insert";
CREATE TRIGGER "teams_control_plane_insert" AFTER INSERT ON "teams" BEGIN UPDATE "control_plane_version" SET "version" = "version" + 1 WHERE "id" = 1; INSERT INTO "control_plane_changes" ("version", "table_name", "row_ids") SELECT "version", 'teams', json_array(NEW."id") FROM "control_plane_version" WHERE "id" = 1; DELETE FROM "control_plane_changes" WHERE "version" <= (SELECT "version" - 1000 FROM "control_plane_version" WHERE "id" = 1); END;
DROP TRIGGER IF EXISTS "teams_control_plane_update";
CREATE TRIGGER "teams_control_plane_update" AFTER UPDATE ON "teams" BEGIN UPDATE "control_plane_version" SET "version" = "version" + 1 WHERE "id" = 1; INSERT INTO "control_plane_changes" ("version", "table_name", "row_ids") SELECT "version", 'teams', CASE WHEN OLD."id" = NEW."id" THEN json_array(NEW."id") ELSE json_array(OLD."id", NEW."id") END FROM "control_plane_version" WHERE "id" = 1; DELETE FROM "control_plane_changes" WHERE "version" <= (SELECT "version" - 1000 FROM "control_plane_version" WHERE "id" = 1); END;
DROP TRIGGER IF EXISTS "teams_control_plane_delete";
CREATE TRIGGER "teams_control_plane_delete" AFTER DELETE ON "teams" BEGIN UPDATE "control_plane_version" SET "version" = "version" + 1 WHERE "id" = 1; INSERT INTO "control_plane_changes" ("version", "table_name", "row_ids") SELECT "version", 'teams', json_array(OLD."id") FROM "control_plane_version" WHERE "id" = 1; DELETE FROM "control_plane_changes" WHERE "version" <= (SELECT "version" - 1000 FROM "control_plane_version" WHERE "id" = 1); END;
DROP TRIGGER IF EXISTS "team_members_control_plane_insert";
CREATE TRIGGER "team_members_control_plane_insert" AFTER INSERT ON "team_members" BEGIN UPDATE "control_plane_version" SET "version" = "version" + 1 WHERE "id" = 1; INSERT INTO "control_plane_changes" ("version", "table_name", "row_ids") SELECT "version", 'team_members', json_array(NEW."id") FROM "control_plane_version" WHERE "id" = 1; DELETE FROM "control_plane_changes" WHERE "version" <= (SELECT "version" - 1000 FROM "control_plane_version" WHERE "id" = 1); END;
DROP TRIGGER IF EXISTS "team_members_control_plane_update";
CREATE TRIGGER "team_members_control_plane_update" AFTER UPDATE ON "team_members" BEGIN UPDATE "control_plane_version" SET "version" = "version" + 1 WHERE "id" = 1; INSERT INTO "control_plane_changes" ("version", "table_name", "row_ids") SELECT "version", 'team_members', CASE WHEN OLD."id" = NEW."id" THEN json_array(NEW."id") ELSE json_array(OLD."id", NEW."id") END FROM "control_plane_version" WHERE "id" = 1; DELETE FROM "control_plane_changes" WHERE "version" <= (SELECT "version" - 1000 FROM "control_plane_version" WHERE "id" = 1); END;
DROP TRIGGER IF EXISTS "team_members_control_plane_delete";
CREATE TRIGGER "team_members_control_plane_delete" AFTER DELETE ON "team_members" BEGIN UPDATE "control_plane_version" SET "version" = "version" + 1 WHERE "id" = 1; INSERT INTO "control_plane_changes" ("version", "table_name", "row_ids") SELECT "version", 'team_members', json_array(OLD."id") FROM "control_plane_version" WHERE "id" = 1; DELETE FROM "control_plane_changes" WHERE "version" <= (SELECT "version" - 1000 FROM "control_plane_version" WHERE "id" = 1); END;
DROP TRIGGER IF EXISTS "mcp_servers_control_plane_insert";
CREATE TRIGGER "mcp_servers_control_plane_insert" AFTER INSERT ON "mcp_servers" BEGIN UPDATE "control_plane_version" SET "version" = "version" + 1 WHERE "id" = 1; INSERT INTO "control_plane_changes" ("version", "table_name", "row_ids") SELECT "version", 'mcp_servers', json_array(NEW."id") FROM "control_plane_version" WHERE "id" = 1; DELETE FROM "control_plane_changes" WHERE "version" <= (SELECT "version" - 1000 FROM "control_plane_version" WHERE "id" = 1); END;
DROP TRIGGER IF EXISTS "mcp_servers_control_plane_update";
CREATE TRIGGER "mcp_servers_control_plane_update" AFTER UPDATE ON "mcp_servers" BEGIN UPDATE "control_plane_version" SET "version" = "version" + 1 WHERE "id" = 1; INSERT INTO "control_plane_changes" ("version", "table_name", "row_ids") SELECT "version", 'mcp_servers', CASE WHEN OLD."id" = NEW."id" THEN json_array(NEW."id") ELSE json_array(OLD."id", NEW."id") END FROM "control_plane_version" WHERE "id" = 1; DELETE FROM "control_plane_changes" WHERE "version" <= (SELECT "version" - 1000 FROM "control_plane_version" WHERE "id" = 1); END;
DROP TRIGGER IF EXISTS "mcp_servers_control_plane_delete";
CREATE TRIGGER "mcp_servers_control_plane_delete" AFTER DELETE ON "mcp_servers" BEGIN UPDATE "control_plane_version" SET "version" = "version" + 1 WHERE "id" = 1; INSERT INTO "control_plane_changes" ("version", "table_name", "row_ids") SELECT "version", 'mcp_servers', json_array(OLD."id") FROM "control_plane_version" WHERE "id" = 1; DELETE FROM "control_plane_changes" WHERE "version" <= (SELECT "version" - 1000 FROM "control_plane_version" WHERE "id" = 1); END;
DROP TRIGGER IF EXISTS "mcp_tokens_control_plane_insert";
CREATE TRIGGER "mcp_tokens_control_plane_insert" AFTER INSERT ON "mcp_tokens" BEGIN UPDATE "control_plane_version" SET "version" = "version" + 1 WHERE "id" = 1; INSERT INTO "control_plane_changes" ("version", "table_name", "row_ids") SELECT "version", 'mcp_tokens', json_array(NEW."id") FROM "control_plane_version" WHERE "id" = 1; DELETE FROM "control_plane_changes" WHERE "version" <= (SELECT "version" - 1000 FROM "control_plane_version" WHERE "id" = 1); END;
DROP TRIGGER IF EXISTS "mcp_tokens_control_plane_update";
CREATE TRIGGER "mcp_tokens_control_plane_update" AFTER UPDATE OF "id", "organization_id", "server_id", "user_id", "api_key_id", "name", "prefix", "token_hash", "scopes", "created_at", "expires_at", "revoked_at", "revoked_by_user_id" ON "mcp_tokens" BEGIN UPDATE "control_plane_version" SET "version" = "version" + 1 WHERE "id" = 1; INSERT INTO "control_plane_changes" ("version", "table_name", "row_ids") SELECT "version", 'mcp_tokens', CASE WHEN OLD."id" = NEW."id" THEN json_array(NEW."id") ELSE json_array(OLD."id", NEW."id") END FROM "control_plane_version" WHERE "id" = 1; DELETE FROM "control_plane_changes" WHERE "version" <= (SELECT "version" - 1000 FROM "control_plane_version" WHERE "id" = 1); END;
DROP TRIGGER IF EXISTS "mcp_tokens_control_plane_delete";
CREATE TRIGGER "mcp_tokens_control_plane_delete" AFTER DELETE ON "mcp_tokens" BEGIN UPDATE "control_plane_version" SET "version" = "version" + 1 WHERE "id" = 1; INSERT INTO "control_plane_changes" ("version", "table_name", "row_ids") SELECT "version", 'mcp_tokens', json_array(OLD."id") FROM "control_plane_version" WHERE "id" = 1; DELETE FROM "control_plane_changes" WHERE "version" <= (SELECT "version" - 1000 FROM "control_plane_version" WHERE "id" = 1); END;

-- CreateTable
CREATE TABLE "usage_monitor_rollups" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "bucket_start" DATETIME NOT NULL,
    "bucket_minutes" INTEGER NOT NULL,
    "organization_id" TEXT NOT NULL,
    "project_id" TEXT NOT NULL,
    "team_id" TEXT NOT NULL,
    "api_key_id" TEXT NOT NULL,
    "model" TEXT NOT NULL,
    "connection_id" TEXT NOT NULL,
    "client_label" TEXT NOT NULL,
    "request_count" BIGINT NOT NULL,
    "error_count" BIGINT NOT NULL,
    "tokens" BIGINT NOT NULL,
    "cost_micros" BIGINT NOT NULL,
    "time_to_first_byte_ms_sum" BIGINT NOT NULL,
    "time_to_first_byte_count" BIGINT NOT NULL,
    "guardrail_blocks" BIGINT NOT NULL,
    "rate_limit_refusals" BIGINT NOT NULL,
    "budget_refusals" BIGINT NOT NULL,
    "upstream_failures" BIGINT NOT NULL,
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
    "latency_bucket_16" BIGINT NOT NULL DEFAULT 0
);

-- CreateTable
CREATE TABLE "monitor_rules" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "organization_id" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "description" TEXT,
    "metric" TEXT NOT NULL,
    "scope_kind" TEXT NOT NULL,
    "scope_value" TEXT,
    "window_minutes" INTEGER NOT NULL,
    "comparator" TEXT NOT NULL,
    "threshold" REAL NOT NULL,
    "min_calls" INTEGER,
    "severity" TEXT NOT NULL,
    "channel_ids" JSONB NOT NULL,
    "renotify_minutes" INTEGER,
    "enabled" BOOLEAN NOT NULL DEFAULT true,
    "muted_until" DATETIME,
    "created_at" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" DATETIME NOT NULL,
    CONSTRAINT "monitor_rules_organization_id_fkey" FOREIGN KEY ("organization_id") REFERENCES "organizations" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "monitor_states" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "rule_id" TEXT NOT NULL,
    "scope_value" TEXT NOT NULL,
    "status" TEXT NOT NULL,
    "value" REAL,
    "calls" INTEGER NOT NULL DEFAULT 0,
    "since" DATETIME NOT NULL,
    "evaluated_at" DATETIME NOT NULL,
    "last_notified_at" DATETIME,
    CONSTRAINT "monitor_states_rule_id_fkey" FOREIGN KEY ("rule_id") REFERENCES "monitor_rules" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "monitor_events" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "rule_id" TEXT NOT NULL,
    "organization_id" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "scope_value" TEXT NOT NULL,
    "severity" TEXT NOT NULL,
    "metric" TEXT NOT NULL,
    "comparator" TEXT NOT NULL,
    "value" REAL,
    "threshold" REAL NOT NULL,
    "window_minutes" INTEGER NOT NULL,
    "calls" INTEGER NOT NULL,
    "window_start" DATETIME NOT NULL,
    "window_end" DATETIME NOT NULL,
    "activity_url" TEXT NOT NULL,
    "deliveries" JSONB NOT NULL,
    "delivery_pending" BOOLEAN NOT NULL DEFAULT false,
    "occurred_at" DATETIME NOT NULL,
    CONSTRAINT "monitor_events_rule_id_fkey" FOREIGN KEY ("rule_id") REFERENCES "monitor_rules" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "evaluator_leases" (
    "name" TEXT NOT NULL PRIMARY KEY,
    "holder" TEXT NOT NULL,
    "expires_at" DATETIME NOT NULL,
    "updated_at" DATETIME NOT NULL
);

-- CreateIndex
CREATE INDEX "usage_monitor_rollups_organization_bucket" ON "usage_monitor_rollups"("organization_id", "bucket_minutes", "bucket_start");

-- CreateIndex
CREATE UNIQUE INDEX "usage_monitor_rollups_natural_key" ON "usage_monitor_rollups"("bucket_minutes", "bucket_start", "organization_id", "project_id", "team_id", "api_key_id", "model", "connection_id", "client_label");

-- CreateIndex
CREATE UNIQUE INDEX "monitor_rules_organization_id_name_key" ON "monitor_rules"("organization_id", "name");

-- CreateIndex
CREATE UNIQUE INDEX "monitor_states_rule_id_scope_value_key" ON "monitor_states"("rule_id", "scope_value");

-- CreateIndex
CREATE INDEX "monitor_events_rule_id_occurred_at_idx" ON "monitor_events"("rule_id", "occurred_at");

-- CreateIndex
CREATE INDEX "monitor_events_delivery_pending_idx" ON "monitor_events"("delivery_pending");

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

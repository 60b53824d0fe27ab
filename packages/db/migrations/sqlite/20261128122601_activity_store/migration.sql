-- CreateTable
CREATE TABLE "usage_event_contents" (
    "organization_id" TEXT NOT NULL,
    "request_id" TEXT NOT NULL,
    "project_id" TEXT,
    "occurred_at" DATETIME NOT NULL,
    "expires_at" DATETIME NOT NULL,
    "truncated" BOOLEAN NOT NULL DEFAULT false,
    "original_bytes" INTEGER NOT NULL,
    "request_ciphertext" TEXT NOT NULL,
    "response_ciphertext" TEXT,

    PRIMARY KEY ("organization_id", "request_id")
);

-- CreateTable
CREATE TABLE "usage_hourly_rollups" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "hour" DATETIME NOT NULL,
    "organization_id" TEXT NOT NULL,
    "project_id" TEXT NOT NULL,
    "api_key_id" TEXT NOT NULL,
    "model" TEXT NOT NULL,
    "client_label" TEXT NOT NULL,
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

-- RedefineTables
PRAGMA defer_foreign_keys=ON;
PRAGMA foreign_keys=OFF;
CREATE TABLE "new_projects" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "organization_id" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "description" TEXT,
    "capture_content" BOOLEAN NOT NULL DEFAULT false,
    "activity_retention_days" INTEGER NOT NULL DEFAULT 30,
    "content_retention_days" INTEGER NOT NULL DEFAULT 7,
    "content_max_bytes" INTEGER NOT NULL DEFAULT 65536,
    "created_at" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" DATETIME NOT NULL,
    CONSTRAINT "projects_organization_id_fkey" FOREIGN KEY ("organization_id") REFERENCES "organizations" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);
INSERT INTO "new_projects" ("capture_content", "created_at", "description", "id", "name", "organization_id", "updated_at") SELECT "capture_content", "created_at", "description", "id", "name", "organization_id", "updated_at" FROM "projects";
DROP TABLE "projects";
ALTER TABLE "new_projects" RENAME TO "projects";
CREATE UNIQUE INDEX "projects_organization_id_name_key" ON "projects"("organization_id", "name");
CREATE TABLE "new_api_keys" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "organization_id" TEXT NOT NULL,
    "project_id" TEXT NOT NULL,
    "team_id" TEXT,
    "name" TEXT NOT NULL,
    "prefix" TEXT NOT NULL,
    "last_four" TEXT NOT NULL,
    "secret_hash" TEXT NOT NULL,
    "created_by_user_id" TEXT,
    "created_at" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" DATETIME NOT NULL,
    "last_used_at" DATETIME,
    "expires_at" DATETIME,
    "revoked_at" DATETIME,
    "revoked_by_user_id" TEXT,
    "default_metadata" JSONB NOT NULL DEFAULT '{}',
    CONSTRAINT "api_keys_organization_id_fkey" FOREIGN KEY ("organization_id") REFERENCES "organizations" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "api_keys_project_id_fkey" FOREIGN KEY ("project_id") REFERENCES "projects" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "api_keys_team_id_fkey" FOREIGN KEY ("team_id") REFERENCES "teams" ("id") ON DELETE SET NULL ON UPDATE CASCADE,
    CONSTRAINT "api_keys_created_by_user_id_fkey" FOREIGN KEY ("created_by_user_id") REFERENCES "users" ("id") ON DELETE SET NULL ON UPDATE CASCADE,
    CONSTRAINT "api_keys_revoked_by_user_id_fkey" FOREIGN KEY ("revoked_by_user_id") REFERENCES "users" ("id") ON DELETE SET NULL ON UPDATE CASCADE
);
INSERT INTO "new_api_keys" ("created_at", "created_by_user_id", "expires_at", "id", "last_four", "last_used_at", "name", "organization_id", "prefix", "project_id", "revoked_at", "revoked_by_user_id", "secret_hash", "team_id", "updated_at") SELECT "created_at", "created_by_user_id", "expires_at", "id", "last_four", "last_used_at", "name", "organization_id", "prefix", "project_id", "revoked_at", "revoked_by_user_id", "secret_hash", "team_id", "updated_at" FROM "api_keys";
DROP TABLE "api_keys";
ALTER TABLE "new_api_keys" RENAME TO "api_keys";
CREATE UNIQUE INDEX "api_keys_secret_hash_key" ON "api_keys"("secret_hash");
CREATE INDEX "api_keys_organization_id_idx" ON "api_keys"("organization_id");
CREATE INDEX "api_keys_project_id_idx" ON "api_keys"("project_id");
CREATE TABLE "new_usage_events" (
    "id" TEXT NOT NULL,
    "request_id" TEXT NOT NULL,
    "trace_id" TEXT,
    "occurred_at" DATETIME NOT NULL,
    "organization_id" TEXT,
    "project_id" TEXT,
    "api_key_id" TEXT,
    "user_id" TEXT,
    "endpoint" TEXT NOT NULL,
    "requested_model" TEXT,
    "route_id" TEXT,
    "provider" TEXT,
    "model" TEXT,
    "status" INTEGER NOT NULL,
    "error_code" TEXT,
    "input_tokens" INTEGER NOT NULL,
    "output_tokens" INTEGER NOT NULL,
    "cache_read_tokens" INTEGER NOT NULL,
    "cache_write_tokens" INTEGER NOT NULL,
    "reasoning_tokens" INTEGER NOT NULL DEFAULT 0,
    "cost_micros" BIGINT NOT NULL,
    "budget_outcome" TEXT,
    "latency_ms" INTEGER NOT NULL,
    "time_to_first_byte_ms" INTEGER,
    "client_label" TEXT,
    "session_id" TEXT,
    "guardrail_flags" JSONB NOT NULL,
    "content" JSONB,
    "team_id" TEXT,
    "connection_id" TEXT,
    "client_version" TEXT,
    "metadata" JSONB NOT NULL DEFAULT '{}',
    "attempts" JSONB NOT NULL DEFAULT '[]',
    "attempt_count" INTEGER NOT NULL DEFAULT 0,
    "gateway_overhead_ms" INTEGER,
    "rate_limit_outcome" TEXT,
    "guardrail_flagged" BOOLEAN NOT NULL DEFAULT false,
    "error_message" TEXT,
    "has_content" BOOLEAN NOT NULL DEFAULT false,

    PRIMARY KEY ("id", "occurred_at")
);
INSERT INTO "new_usage_events" ("api_key_id", "budget_outcome", "cache_read_tokens", "cache_write_tokens", "client_label", "content", "cost_micros", "endpoint", "error_code", "guardrail_flags", "id", "input_tokens", "latency_ms", "model", "occurred_at", "organization_id", "output_tokens", "project_id", "provider", "reasoning_tokens", "request_id", "requested_model", "route_id", "session_id", "status", "time_to_first_byte_ms", "trace_id", "user_id") SELECT "api_key_id", "budget_outcome", "cache_read_tokens", "cache_write_tokens", "client_label", "content", "cost_micros", "endpoint", "error_code", "guardrail_flags", "id", "input_tokens", "latency_ms", "model", "occurred_at", "organization_id", "output_tokens", "project_id", "provider", "reasoning_tokens", "request_id", "requested_model", "route_id", "session_id", "status", "time_to_first_byte_ms", "trace_id", "user_id" FROM "usage_events";
DROP TABLE "usage_events";
ALTER TABLE "new_usage_events" RENAME TO "usage_events";
CREATE INDEX "usage_events_organization_id_occurred_at_idx" ON "usage_events"("organization_id", "occurred_at");
CREATE INDEX "usage_events_project_id_occurred_at_idx" ON "usage_events"("project_id", "occurred_at");
CREATE INDEX "usage_events_api_key_id_occurred_at_idx" ON "usage_events"("api_key_id", "occurred_at");
CREATE INDEX "usage_events_request_id_idx" ON "usage_events"("request_id");
CREATE INDEX "usage_events_organization_id_team_id_occurred_at_idx" ON "usage_events"("organization_id", "team_id", "occurred_at");
CREATE INDEX "usage_events_organization_id_model_occurred_at_idx" ON "usage_events"("organization_id", "model", "occurred_at");
CREATE INDEX "usage_events_organization_id_requested_model_occurred_at_idx" ON "usage_events"("organization_id", "requested_model", "occurred_at");
CREATE INDEX "usage_events_organization_id_connection_id_occurred_at_idx" ON "usage_events"("organization_id", "connection_id", "occurred_at");
CREATE INDEX "usage_events_organization_id_status_occurred_at_idx" ON "usage_events"("organization_id", "status", "occurred_at");
CREATE INDEX "usage_events_organization_id_error_code_occurred_at_idx" ON "usage_events"("organization_id", "error_code", "occurred_at");
CREATE INDEX "usage_events_organization_id_client_label_occurred_at_idx" ON "usage_events"("organization_id", "client_label", "occurred_at");
CREATE INDEX "usage_events_organization_id_session_id_occurred_at_idx" ON "usage_events"("organization_id", "session_id", "occurred_at");
PRAGMA foreign_keys=ON;
PRAGMA defer_foreign_keys=OFF;

-- CreateIndex
CREATE INDEX "usage_event_contents_expires_at_idx" ON "usage_event_contents"("expires_at");

-- CreateIndex
CREATE INDEX "usage_event_contents_project_id_occurred_at_idx" ON "usage_event_contents"("project_id", "occurred_at");

-- CreateIndex
CREATE INDEX "usage_hourly_rollups_organization_id_hour_idx" ON "usage_hourly_rollups"("organization_id", "hour");

-- CreateIndex
CREATE UNIQUE INDEX "usage_hourly_rollups_natural_key" ON "usage_hourly_rollups"("hour", "organization_id", "project_id", "api_key_id", "model", "client_label");

-- Hand-written (activity storage): flags of older rows, and the hourly rollups of older rows.
UPDATE "usage_events" SET "guardrail_flagged" = true WHERE json_valid("guardrail_flags") AND json_type("guardrail_flags") = 'array' AND json_array_length("guardrail_flags") > 0;
UPDATE "usage_events" SET "has_content" = true WHERE "content" IS NOT NULL;
INSERT INTO "usage_hourly_rollups" ("id", "hour", "organization_id", "project_id", "api_key_id", "model", "client_label", "request_count", "error_count", "input_tokens", "output_tokens", "cache_read_tokens", "cache_write_tokens", "cost_micros", "latency_ms_sum", "latency_count", "latency_ms_max", "time_to_first_byte_ms_sum", "time_to_first_byte_count", "latency_bucket_0", "latency_bucket_1", "latency_bucket_2", "latency_bucket_3", "latency_bucket_4", "latency_bucket_5", "latency_bucket_6", "latency_bucket_7", "latency_bucket_8", "latency_bucket_9", "latency_bucket_10", "latency_bucket_11", "latency_bucket_12", "latency_bucket_13", "latency_bucket_14", "latency_bucket_15", "latency_bucket_16", "updated_at")
SELECT lower(hex(randomblob(12))), "hour", "organization_id", "project_id", "api_key_id", "model", "client_label", COUNT(*), SUM(CASE WHEN "status" >= 400 THEN 1 ELSE 0 END), SUM("input_tokens"), SUM("output_tokens"), SUM("cache_read_tokens"), SUM("cache_write_tokens"), SUM("cost_micros"), SUM("latency_ms"), COUNT(*), MAX("latency_ms"), COALESCE(SUM("time_to_first_byte_ms"), 0), COUNT("time_to_first_byte_ms"), SUM(CASE WHEN "latency_ms" > -1 AND "latency_ms" <= 50 THEN 1 ELSE 0 END), SUM(CASE WHEN "latency_ms" > 50 AND "latency_ms" <= 100 THEN 1 ELSE 0 END), SUM(CASE WHEN "latency_ms" > 100 AND "latency_ms" <= 200 THEN 1 ELSE 0 END), SUM(CASE WHEN "latency_ms" > 200 AND "latency_ms" <= 300 THEN 1 ELSE 0 END), SUM(CASE WHEN "latency_ms" > 300 AND "latency_ms" <= 500 THEN 1 ELSE 0 END), SUM(CASE WHEN "latency_ms" > 500 AND "latency_ms" <= 750 THEN 1 ELSE 0 END), SUM(CASE WHEN "latency_ms" > 750 AND "latency_ms" <= 1000 THEN 1 ELSE 0 END), SUM(CASE WHEN "latency_ms" > 1000 AND "latency_ms" <= 1500 THEN 1 ELSE 0 END), SUM(CASE WHEN "latency_ms" > 1500 AND "latency_ms" <= 2000 THEN 1 ELSE 0 END), SUM(CASE WHEN "latency_ms" > 2000 AND "latency_ms" <= 3000 THEN 1 ELSE 0 END), SUM(CASE WHEN "latency_ms" > 3000 AND "latency_ms" <= 5000 THEN 1 ELSE 0 END), SUM(CASE WHEN "latency_ms" > 5000 AND "latency_ms" <= 7500 THEN 1 ELSE 0 END), SUM(CASE WHEN "latency_ms" > 7500 AND "latency_ms" <= 10000 THEN 1 ELSE 0 END), SUM(CASE WHEN "latency_ms" > 10000 AND "latency_ms" <= 20000 THEN 1 ELSE 0 END), SUM(CASE WHEN "latency_ms" > 20000 AND "latency_ms" <= 30000 THEN 1 ELSE 0 END), SUM(CASE WHEN "latency_ms" > 30000 AND "latency_ms" <= 60000 THEN 1 ELSE 0 END), SUM(CASE WHEN "latency_ms" > 60000 THEN 1 ELSE 0 END), strftime('%Y-%m-%dT%H:%M:%f', 'now') || '+00:00'
FROM (SELECT substr("occurred_at", 1, 13) || ':00:00.000+00:00' AS "hour", COALESCE("organization_id", '') AS "organization_id", COALESCE("project_id", '') AS "project_id", COALESCE("api_key_id", '') AS "api_key_id", CASE WHEN "provider" IS NOT NULL AND "model" IS NOT NULL THEN "provider" || '/' || "model" ELSE COALESCE("model", "requested_model", '') END AS "model", COALESCE("client_label", '') AS "client_label", "status", "input_tokens", "output_tokens", "cache_read_tokens", "cache_write_tokens", "cost_micros", "latency_ms", "time_to_first_byte_ms" FROM "usage_events") AS "events"
GROUP BY "hour", "organization_id", "project_id", "api_key_id", "model", "client_label";

-- ControlPlaneVersion: hand-written by scripts/control-plane-triggers.mjs
INSERT OR IGNORE INTO "control_plane_version" ("id", "version") VALUES (1, 1);
DROP TRIGGER IF EXISTS "organizations_control_plane_insert";
CREATE TRIGGER "organizations_control_plane_insert" AFTER INSERT ON "organizations" BEGIN UPDATE "control_plane_version" SET "version" = "version" + 1 WHERE "id" = 1; END;
DROP TRIGGER IF EXISTS "organizations_control_plane_update";
CREATE TRIGGER "organizations_control_plane_update" AFTER UPDATE ON "organizations" BEGIN UPDATE "control_plane_version" SET "version" = "version" + 1 WHERE "id" = 1; END;
DROP TRIGGER IF EXISTS "organizations_control_plane_delete";
CREATE TRIGGER "organizations_control_plane_delete" AFTER DELETE ON "organizations" BEGIN UPDATE "control_plane_version" SET "version" = "version" + 1 WHERE "id" = 1; END;
DROP TRIGGER IF EXISTS "projects_control_plane_insert";
CREATE TRIGGER "projects_control_plane_insert" AFTER INSERT ON "projects" BEGIN UPDATE "control_plane_version" SET "version" = "version" + 1 WHERE "id" = 1; END;
DROP TRIGGER IF EXISTS "projects_control_plane_update";
CREATE TRIGGER "projects_control_plane_update" AFTER UPDATE ON "projects" BEGIN UPDATE "control_plane_version" SET "version" = "version" + 1 WHERE "id" = 1; END;
DROP TRIGGER IF EXISTS "projects_control_plane_delete";
CREATE TRIGGER "projects_control_plane_delete" AFTER DELETE ON "projects" BEGIN UPDATE "control_plane_version" SET "version" = "version" + 1 WHERE "id" = 1; END;
DROP TRIGGER IF EXISTS "api_keys_control_plane_insert";
CREATE TRIGGER "api_keys_control_plane_insert" AFTER INSERT ON "api_keys" BEGIN UPDATE "control_plane_version" SET "version" = "version" + 1 WHERE "id" = 1; END;
DROP TRIGGER IF EXISTS "api_keys_control_plane_update";
CREATE TRIGGER "api_keys_control_plane_update" AFTER UPDATE OF "id", "organization_id", "project_id", "team_id", "name", "prefix", "last_four", "secret_hash", "created_by_user_id", "created_at", "expires_at", "revoked_at", "revoked_by_user_id", "default_metadata" ON "api_keys" BEGIN UPDATE "control_plane_version" SET "version" = "version" + 1 WHERE "id" = 1; END;
DROP TRIGGER IF EXISTS "api_keys_control_plane_delete";
CREATE TRIGGER "api_keys_control_plane_delete" AFTER DELETE ON "api_keys" BEGIN UPDATE "control_plane_version" SET "version" = "version" + 1 WHERE "id" = 1; END;
DROP TRIGGER IF EXISTS "connections_control_plane_insert";
CREATE TRIGGER "connections_control_plane_insert" AFTER INSERT ON "connections" BEGIN UPDATE "control_plane_version" SET "version" = "version" + 1 WHERE "id" = 1; END;
DROP TRIGGER IF EXISTS "connections_control_plane_update";
CREATE TRIGGER "connections_control_plane_update" AFTER UPDATE ON "connections" BEGIN UPDATE "control_plane_version" SET "version" = "version" + 1 WHERE "id" = 1; END;
DROP TRIGGER IF EXISTS "connections_control_plane_delete";
CREATE TRIGGER "connections_control_plane_delete" AFTER DELETE ON "connections" BEGIN UPDATE "control_plane_version" SET "version" = "version" + 1 WHERE "id" = 1; END;
DROP TRIGGER IF EXISTS "routes_control_plane_insert";
CREATE TRIGGER "routes_control_plane_insert" AFTER INSERT ON "routes" BEGIN UPDATE "control_plane_version" SET "version" = "version" + 1 WHERE "id" = 1; END;
DROP TRIGGER IF EXISTS "routes_control_plane_update";
CREATE TRIGGER "routes_control_plane_update" AFTER UPDATE ON "routes" BEGIN UPDATE "control_plane_version" SET "version" = "version" + 1 WHERE "id" = 1; END;
DROP TRIGGER IF EXISTS "routes_control_plane_delete";
CREATE TRIGGER "routes_control_plane_delete" AFTER DELETE ON "routes" BEGIN UPDATE "control_plane_version" SET "version" = "version" + 1 WHERE "id" = 1; END;
DROP TRIGGER IF EXISTS "policies_control_plane_insert";
CREATE TRIGGER "policies_control_plane_insert" AFTER INSERT ON "policies" BEGIN UPDATE "control_plane_version" SET "version" = "version" + 1 WHERE "id" = 1; END;
DROP TRIGGER IF EXISTS "policies_control_plane_update";
CREATE TRIGGER "policies_control_plane_update" AFTER UPDATE ON "policies" BEGIN UPDATE "control_plane_version" SET "version" = "version" + 1 WHERE "id" = 1; END;
DROP TRIGGER IF EXISTS "policies_control_plane_delete";
CREATE TRIGGER "policies_control_plane_delete" AFTER DELETE ON "policies" BEGIN UPDATE "control_plane_version" SET "version" = "version" + 1 WHERE "id" = 1; END;
DROP TRIGGER IF EXISTS "budgets_control_plane_insert";
CREATE TRIGGER "budgets_control_plane_insert" AFTER INSERT ON "budgets" BEGIN UPDATE "control_plane_version" SET "version" = "version" + 1 WHERE "id" = 1; END;
DROP TRIGGER IF EXISTS "budgets_control_plane_update";
CREATE TRIGGER "budgets_control_plane_update" AFTER UPDATE ON "budgets" BEGIN UPDATE "control_plane_version" SET "version" = "version" + 1 WHERE "id" = 1; END;
DROP TRIGGER IF EXISTS "budgets_control_plane_delete";
CREATE TRIGGER "budgets_control_plane_delete" AFTER DELETE ON "budgets" BEGIN UPDATE "control_plane_version" SET "version" = "version" + 1 WHERE "id" = 1; END;
DROP TRIGGER IF EXISTS "rate_limits_control_plane_insert";
CREATE TRIGGER "rate_limits_control_plane_insert" AFTER INSERT ON "rate_limits" BEGIN UPDATE "control_plane_version" SET "version" = "version" + 1 WHERE "id" = 1; END;
DROP TRIGGER IF EXISTS "rate_limits_control_plane_update";
CREATE TRIGGER "rate_limits_control_plane_update" AFTER UPDATE ON "rate_limits" BEGIN UPDATE "control_plane_version" SET "version" = "version" + 1 WHERE "id" = 1; END;
DROP TRIGGER IF EXISTS "rate_limits_control_plane_delete";
CREATE TRIGGER "rate_limits_control_plane_delete" AFTER DELETE ON "rate_limits" BEGIN UPDATE "control_plane_version" SET "version" = "version" + 1 WHERE "id" = 1; END;
DROP TRIGGER IF EXISTS "teams_control_plane_insert";
CREATE TRIGGER "teams_control_plane_insert" AFTER INSERT ON "teams" BEGIN UPDATE "control_plane_version" SET "version" = "version" + 1 WHERE "id" = 1; END;
DROP TRIGGER IF EXISTS "teams_control_plane_update";
CREATE TRIGGER "teams_control_plane_update" AFTER UPDATE ON "teams" BEGIN UPDATE "control_plane_version" SET "version" = "version" + 1 WHERE "id" = 1; END;
DROP TRIGGER IF EXISTS "teams_control_plane_delete";
CREATE TRIGGER "teams_control_plane_delete" AFTER DELETE ON "teams" BEGIN UPDATE "control_plane_version" SET "version" = "version" + 1 WHERE "id" = 1; END;
DROP TRIGGER IF EXISTS "team_members_control_plane_insert";
CREATE TRIGGER "team_members_control_plane_insert" AFTER INSERT ON "team_members" BEGIN UPDATE "control_plane_version" SET "version" = "version" + 1 WHERE "id" = 1; END;
DROP TRIGGER IF EXISTS "team_members_control_plane_update";
CREATE TRIGGER "team_members_control_plane_update" AFTER UPDATE ON "team_members" BEGIN UPDATE "control_plane_version" SET "version" = "version" + 1 WHERE "id" = 1; END;
DROP TRIGGER IF EXISTS "team_members_control_plane_delete";
CREATE TRIGGER "team_members_control_plane_delete" AFTER DELETE ON "team_members" BEGIN UPDATE "control_plane_version" SET "version" = "version" + 1 WHERE "id" = 1; END;
DROP TRIGGER IF EXISTS "mcp_servers_control_plane_insert";
CREATE TRIGGER "mcp_servers_control_plane_insert" AFTER INSERT ON "mcp_servers" BEGIN UPDATE "control_plane_version" SET "version" = "version" + 1 WHERE "id" = 1; END;
DROP TRIGGER IF EXISTS "mcp_servers_control_plane_update";
CREATE TRIGGER "mcp_servers_control_plane_update" AFTER UPDATE ON "mcp_servers" BEGIN UPDATE "control_plane_version" SET "version" = "version" + 1 WHERE "id" = 1; END;
DROP TRIGGER IF EXISTS "mcp_servers_control_plane_delete";
CREATE TRIGGER "mcp_servers_control_plane_delete" AFTER DELETE ON "mcp_servers" BEGIN UPDATE "control_plane_version" SET "version" = "version" + 1 WHERE "id" = 1; END;
DROP TRIGGER IF EXISTS "mcp_tokens_control_plane_insert";
CREATE TRIGGER "mcp_tokens_control_plane_insert" AFTER INSERT ON "mcp_tokens" BEGIN UPDATE "control_plane_version" SET "version" = "version" + 1 WHERE "id" = 1; END;
DROP TRIGGER IF EXISTS "mcp_tokens_control_plane_update";
CREATE TRIGGER "mcp_tokens_control_plane_update" AFTER UPDATE OF "id", "organization_id", "server_id", "user_id", "api_key_id", "name", "prefix", "token_hash", "scopes", "created_at", "expires_at", "revoked_at", "revoked_by_user_id" ON "mcp_tokens" BEGIN UPDATE "control_plane_version" SET "version" = "version" + 1 WHERE "id" = 1; END;
DROP TRIGGER IF EXISTS "mcp_tokens_control_plane_delete";
CREATE TRIGGER "mcp_tokens_control_plane_delete" AFTER DELETE ON "mcp_tokens" BEGIN UPDATE "control_plane_version" SET "version" = "version" + 1 WHERE "id" = 1; END;

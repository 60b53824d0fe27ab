-- AlterTable
ALTER TABLE "projects" ADD COLUMN     "activity_retention_days" INTEGER NOT NULL DEFAULT 30,
ADD COLUMN     "content_max_bytes" INTEGER NOT NULL DEFAULT 65536,
ADD COLUMN     "content_retention_days" INTEGER NOT NULL DEFAULT 7;

-- AlterTable
ALTER TABLE "api_keys" ADD COLUMN     "default_metadata" JSONB NOT NULL DEFAULT '{}';

-- AlterTable
ALTER TABLE "usage_events" DROP CONSTRAINT "usage_events_pkey",
ADD COLUMN     "attempt_count" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN     "attempts" JSONB NOT NULL DEFAULT '[]',
ADD COLUMN     "client_version" TEXT,
ADD COLUMN     "connection_id" TEXT,
ADD COLUMN     "error_message" TEXT,
ADD COLUMN     "gateway_overhead_ms" INTEGER,
ADD COLUMN     "guardrail_flagged" BOOLEAN NOT NULL DEFAULT false,
ADD COLUMN     "has_content" BOOLEAN NOT NULL DEFAULT false,
ADD COLUMN     "metadata" JSONB NOT NULL DEFAULT '{}',
ADD COLUMN     "rate_limit_outcome" TEXT,
ADD COLUMN     "team_id" TEXT,
ADD CONSTRAINT "usage_events_pkey" PRIMARY KEY ("id", "occurred_at");

-- CreateTable
CREATE TABLE "usage_event_contents" (
    "organization_id" TEXT NOT NULL,
    "request_id" TEXT NOT NULL,
    "project_id" TEXT,
    "occurred_at" TIMESTAMP(3) NOT NULL,
    "expires_at" TIMESTAMP(3) NOT NULL,
    "truncated" BOOLEAN NOT NULL DEFAULT false,
    "original_bytes" INTEGER NOT NULL,
    "request_ciphertext" TEXT NOT NULL,
    "response_ciphertext" TEXT,

    CONSTRAINT "usage_event_contents_pkey" PRIMARY KEY ("organization_id","request_id")
);

-- CreateTable
CREATE TABLE "usage_hourly_rollups" (
    "id" TEXT NOT NULL,
    "hour" TIMESTAMP(3) NOT NULL,
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
    "updated_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "usage_hourly_rollups_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "usage_event_contents_expires_at_idx" ON "usage_event_contents"("expires_at");

-- CreateIndex
CREATE INDEX "usage_event_contents_project_id_occurred_at_idx" ON "usage_event_contents"("project_id", "occurred_at");

-- CreateIndex
CREATE INDEX "usage_hourly_rollups_organization_id_hour_idx" ON "usage_hourly_rollups"("organization_id", "hour");

-- CreateIndex
CREATE UNIQUE INDEX "usage_hourly_rollups_natural_key" ON "usage_hourly_rollups"("hour", "organization_id", "project_id", "api_key_id", "model", "client_label");

-- Hand-written (activity storage): flags of older rows, then usage_events partitioned by UTC day
-- on "occurred_at" (rows kept), its indexes created once on the partitioned table, and the hourly
-- rollups of older rows.
UPDATE "usage_events" SET "guardrail_flagged" = true WHERE jsonb_typeof("guardrail_flags") = 'array' AND jsonb_array_length("guardrail_flags") > 0;
UPDATE "usage_events" SET "has_content" = true WHERE "content" IS NOT NULL AND "content" <> 'null'::jsonb;
ALTER TABLE "usage_events" RENAME TO "usage_events_unpartitioned";
ALTER TABLE "usage_events_unpartitioned" RENAME CONSTRAINT "usage_events_pkey" TO "usage_events_unpartitioned_pkey";
CREATE TABLE "usage_events" (LIKE "usage_events_unpartitioned" INCLUDING DEFAULTS) PARTITION BY RANGE ("occurred_at");
ALTER TABLE "usage_events" ADD CONSTRAINT "usage_events_pkey" PRIMARY KEY ("id", "occurred_at");
-- Rows of days without their partition (yet) land here; creating the day's partition moves them.
CREATE TABLE "usage_events_default" PARTITION OF "usage_events" DEFAULT;
-- Creates the partition of one UTC day ("usage_events_pYYYYMMDD") unless it exists: an empty table
-- attached with ATTACH PARTITION (no lock that blocks writers of other days), after moving that
-- day's rows out of the default partition.
CREATE OR REPLACE FUNCTION "usage_events_ensure_partition"("day" date) RETURNS boolean LANGUAGE plpgsql AS $$
DECLARE
  "name" text := 'usage_events_p' || to_char("day", 'YYYYMMDD');
  "lower" timestamp := "day"::timestamp;
  "upper" timestamp := ("day" + 1)::timestamp;
BEGIN
  IF EXISTS (SELECT 1 FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid WHERE i.inhparent = '"usage_events"'::regclass AND c.relname = "name") THEN
    RETURN false;
  END IF;
  EXECUTE format('CREATE TABLE %I (LIKE "usage_events" INCLUDING DEFAULTS)', "name");
  EXECUTE format('WITH "moved" AS (DELETE FROM "usage_events_default" WHERE "occurred_at" >= $1 AND "occurred_at" < $2 RETURNING *) INSERT INTO %I SELECT * FROM "moved"', "name") USING "lower", "upper";
  EXECUTE format('ALTER TABLE "usage_events" ATTACH PARTITION %I FOR VALUES FROM (%L) TO (%L)', "name", "lower", "upper");
  RETURN true;
END $$;
DO $$
DECLARE "day" date;
BEGIN
  FOR "day" IN
    SELECT DISTINCT ("occurred_at")::date FROM "usage_events_unpartitioned"
    UNION SELECT generate_series((now() AT TIME ZONE 'UTC')::date - 1, (now() AT TIME ZONE 'UTC')::date + 7, interval '1 day')::date
  LOOP
    PERFORM "usage_events_ensure_partition"("day");
  END LOOP;
END $$;
INSERT INTO "usage_events" SELECT * FROM "usage_events_unpartitioned";
DROP TABLE "usage_events_unpartitioned";
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
-- PostgreSQL only: metadata key = value filters (`metadata @> {"k": "v"}`).
CREATE INDEX "usage_events_metadata_idx" ON "usage_events" USING GIN ("metadata" jsonb_path_ops);
INSERT INTO "usage_hourly_rollups" ("id", "hour", "organization_id", "project_id", "api_key_id", "model", "client_label", "request_count", "error_count", "input_tokens", "output_tokens", "cache_read_tokens", "cache_write_tokens", "cost_micros", "latency_ms_sum", "latency_count", "latency_ms_max", "time_to_first_byte_ms_sum", "time_to_first_byte_count", "latency_bucket_0", "latency_bucket_1", "latency_bucket_2", "latency_bucket_3", "latency_bucket_4", "latency_bucket_5", "latency_bucket_6", "latency_bucket_7", "latency_bucket_8", "latency_bucket_9", "latency_bucket_10", "latency_bucket_11", "latency_bucket_12", "latency_bucket_13", "latency_bucket_14", "latency_bucket_15", "latency_bucket_16", "updated_at")
SELECT md5(random()::text || clock_timestamp()::text), "hour", "organization_id", "project_id", "api_key_id", "model", "client_label", COUNT(*), SUM(CASE WHEN "status" >= 400 THEN 1 ELSE 0 END), SUM("input_tokens"), SUM("output_tokens"), SUM("cache_read_tokens"), SUM("cache_write_tokens"), SUM("cost_micros"), SUM("latency_ms"), COUNT(*), MAX("latency_ms"), COALESCE(SUM("time_to_first_byte_ms"), 0), COUNT("time_to_first_byte_ms"), SUM(CASE WHEN "latency_ms" > -1 AND "latency_ms" <= 50 THEN 1 ELSE 0 END), SUM(CASE WHEN "latency_ms" > 50 AND "latency_ms" <= 100 THEN 1 ELSE 0 END), SUM(CASE WHEN "latency_ms" > 100 AND "latency_ms" <= 200 THEN 1 ELSE 0 END), SUM(CASE WHEN "latency_ms" > 200 AND "latency_ms" <= 300 THEN 1 ELSE 0 END), SUM(CASE WHEN "latency_ms" > 300 AND "latency_ms" <= 500 THEN 1 ELSE 0 END), SUM(CASE WHEN "latency_ms" > 500 AND "latency_ms" <= 750 THEN 1 ELSE 0 END), SUM(CASE WHEN "latency_ms" > 750 AND "latency_ms" <= 1000 THEN 1 ELSE 0 END), SUM(CASE WHEN "latency_ms" > 1000 AND "latency_ms" <= 1500 THEN 1 ELSE 0 END), SUM(CASE WHEN "latency_ms" > 1500 AND "latency_ms" <= 2000 THEN 1 ELSE 0 END), SUM(CASE WHEN "latency_ms" > 2000 AND "latency_ms" <= 3000 THEN 1 ELSE 0 END), SUM(CASE WHEN "latency_ms" > 3000 AND "latency_ms" <= 5000 THEN 1 ELSE 0 END), SUM(CASE WHEN "latency_ms" > 5000 AND "latency_ms" <= 7500 THEN 1 ELSE 0 END), SUM(CASE WHEN "latency_ms" > 7500 AND "latency_ms" <= 10000 THEN 1 ELSE 0 END), SUM(CASE WHEN "latency_ms" > 10000 AND "latency_ms" <= 20000 THEN 1 ELSE 0 END), SUM(CASE WHEN "latency_ms" > 20000 AND "latency_ms" <= 30000 THEN 1 ELSE 0 END), SUM(CASE WHEN "latency_ms" > 30000 AND "latency_ms" <= 60000 THEN 1 ELSE 0 END), SUM(CASE WHEN "latency_ms" > 60000 THEN 1 ELSE 0 END), (now() AT TIME ZONE 'UTC')
FROM (SELECT date_trunc('hour', "occurred_at") AS "hour", COALESCE("organization_id", '') AS "organization_id", COALESCE("project_id", '') AS "project_id", COALESCE("api_key_id", '') AS "api_key_id", CASE WHEN "provider" IS NOT NULL AND "model" IS NOT NULL THEN "provider" || '/' || "model" ELSE COALESCE("model", "requested_model", '') END AS "model", COALESCE("client_label", '') AS "client_label", "status", "input_tokens", "output_tokens", "cache_read_tokens", "cache_write_tokens", "cost_micros", "latency_ms", "time_to_first_byte_ms" FROM "usage_events") AS "events"
GROUP BY "hour", "organization_id", "project_id", "api_key_id", "model", "client_label";

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

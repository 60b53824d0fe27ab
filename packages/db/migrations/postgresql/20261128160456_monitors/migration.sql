-- CreateTable
CREATE TABLE "usage_monitor_rollups" (
    "id" TEXT NOT NULL,
    "bucket_start" TIMESTAMP(3) NOT NULL,
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
    "latency_bucket_16" BIGINT NOT NULL DEFAULT 0,

    CONSTRAINT "usage_monitor_rollups_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "monitor_rules" (
    "id" TEXT NOT NULL,
    "organization_id" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "description" TEXT,
    "metric" TEXT NOT NULL,
    "scope_kind" TEXT NOT NULL,
    "scope_value" TEXT,
    "window_minutes" INTEGER NOT NULL,
    "comparator" TEXT NOT NULL,
    "threshold" DOUBLE PRECISION NOT NULL,
    "min_calls" INTEGER,
    "severity" TEXT NOT NULL,
    "channel_ids" JSONB NOT NULL,
    "renotify_minutes" INTEGER,
    "enabled" BOOLEAN NOT NULL DEFAULT true,
    "muted_until" TIMESTAMP(3),
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "monitor_rules_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "monitor_states" (
    "id" TEXT NOT NULL,
    "rule_id" TEXT NOT NULL,
    "scope_value" TEXT NOT NULL,
    "status" TEXT NOT NULL,
    "value" DOUBLE PRECISION,
    "calls" INTEGER NOT NULL DEFAULT 0,
    "since" TIMESTAMP(3) NOT NULL,
    "evaluated_at" TIMESTAMP(3) NOT NULL,
    "last_notified_at" TIMESTAMP(3),

    CONSTRAINT "monitor_states_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "monitor_events" (
    "id" TEXT NOT NULL,
    "rule_id" TEXT NOT NULL,
    "organization_id" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "scope_value" TEXT NOT NULL,
    "severity" TEXT NOT NULL,
    "metric" TEXT NOT NULL,
    "comparator" TEXT NOT NULL,
    "value" DOUBLE PRECISION,
    "threshold" DOUBLE PRECISION NOT NULL,
    "window_minutes" INTEGER NOT NULL,
    "calls" INTEGER NOT NULL,
    "window_start" TIMESTAMP(3) NOT NULL,
    "window_end" TIMESTAMP(3) NOT NULL,
    "activity_url" TEXT NOT NULL,
    "deliveries" JSONB NOT NULL,
    "delivery_pending" BOOLEAN NOT NULL DEFAULT false,
    "occurred_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "monitor_events_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "evaluator_leases" (
    "name" TEXT NOT NULL,
    "holder" TEXT NOT NULL,
    "expires_at" TIMESTAMP(3) NOT NULL,
    "updated_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "evaluator_leases_pkey" PRIMARY KEY ("name")
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

-- AddForeignKey
ALTER TABLE "monitor_rules" ADD CONSTRAINT "monitor_rules_organization_id_fkey" FOREIGN KEY ("organization_id") REFERENCES "organizations"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "monitor_states" ADD CONSTRAINT "monitor_states_rule_id_fkey" FOREIGN KEY ("rule_id") REFERENCES "monitor_rules"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "monitor_events" ADD CONSTRAINT "monitor_events_rule_id_fkey" FOREIGN KEY ("rule_id") REFERENCES "monitor_rules"("id") ON DELETE CASCADE ON UPDATE CASCADE;

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

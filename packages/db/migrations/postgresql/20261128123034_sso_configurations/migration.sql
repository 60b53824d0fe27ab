-- CreateTable
CREATE TABLE "sso_configurations" (
    "id" TEXT NOT NULL,
    "organization_id" TEXT NOT NULL,
    "enabled" BOOLEAN NOT NULL DEFAULT true,
    "issuer_url" TEXT NOT NULL,
    "client_id" TEXT NOT NULL,
    "client_auth_method" TEXT NOT NULL,
    "client_credential_ciphertext" TEXT,
    "scopes" JSONB NOT NULL,
    "allowed_email_domains" JSONB NOT NULL,
    "groups_claim" TEXT NOT NULL DEFAULT 'groups',
    "role_mappings" JSONB NOT NULL,
    "team_mappings" JSONB NOT NULL,
    "project_mappings" JSONB NOT NULL,
    "jit_provisioning" BOOLEAN NOT NULL DEFAULT false,
    "default_role" TEXT NOT NULL DEFAULT 'member',
    "owner_signed_in_at" TIMESTAMP(3),
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "sso_configurations_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "sso_identities" (
    "id" TEXT NOT NULL,
    "organization_id" TEXT NOT NULL,
    "user_id" TEXT NOT NULL,
    "issuer" TEXT NOT NULL,
    "subject" TEXT NOT NULL,
    "email" TEXT NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "last_sign_in_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "sso_identities_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "sso_login_states" (
    "id" TEXT NOT NULL,
    "state_hash" TEXT NOT NULL,
    "organization_id" TEXT NOT NULL,
    "purpose" TEXT NOT NULL,
    "user_id" TEXT,
    "secrets_ciphertext" TEXT NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "expires_at" TIMESTAMP(3) NOT NULL,
    "consumed_at" TIMESTAMP(3),
    "result" JSONB,

    CONSTRAINT "sso_login_states_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "sso_configurations_organization_id_key" ON "sso_configurations"("organization_id");

-- CreateIndex
CREATE INDEX "sso_identities_user_id_idx" ON "sso_identities"("user_id");

-- CreateIndex
CREATE UNIQUE INDEX "sso_identities_organization_id_issuer_subject_key" ON "sso_identities"("organization_id", "issuer", "subject");

-- CreateIndex
CREATE UNIQUE INDEX "sso_login_states_state_hash_key" ON "sso_login_states"("state_hash");

-- CreateIndex
CREATE INDEX "sso_login_states_expires_at_idx" ON "sso_login_states"("expires_at");

-- AddForeignKey
ALTER TABLE "sso_configurations" ADD CONSTRAINT "sso_configurations_organization_id_fkey" FOREIGN KEY ("organization_id") REFERENCES "organizations"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "sso_identities" ADD CONSTRAINT "sso_identities_organization_id_fkey" FOREIGN KEY ("organization_id") REFERENCES "organizations"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "sso_identities" ADD CONSTRAINT "sso_identities_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "sso_login_states" ADD CONSTRAINT "sso_login_states_organization_id_fkey" FOREIGN KEY ("organization_id") REFERENCES "organizations"("id") ON DELETE CASCADE ON UPDATE CASCADE;

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

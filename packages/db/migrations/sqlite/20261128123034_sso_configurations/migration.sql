-- CreateTable
CREATE TABLE "sso_configurations" (
    "id" TEXT NOT NULL PRIMARY KEY,
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
    "owner_signed_in_at" DATETIME,
    "created_at" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" DATETIME NOT NULL,
    CONSTRAINT "sso_configurations_organization_id_fkey" FOREIGN KEY ("organization_id") REFERENCES "organizations" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "sso_identities" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "organization_id" TEXT NOT NULL,
    "user_id" TEXT NOT NULL,
    "issuer" TEXT NOT NULL,
    "subject" TEXT NOT NULL,
    "email" TEXT NOT NULL,
    "created_at" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "last_sign_in_at" DATETIME NOT NULL,
    CONSTRAINT "sso_identities_organization_id_fkey" FOREIGN KEY ("organization_id") REFERENCES "organizations" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "sso_identities_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "sso_login_states" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "state_hash" TEXT NOT NULL,
    "organization_id" TEXT NOT NULL,
    "purpose" TEXT NOT NULL,
    "user_id" TEXT,
    "secrets_ciphertext" TEXT NOT NULL,
    "created_at" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "expires_at" DATETIME NOT NULL,
    "consumed_at" DATETIME,
    "result" JSONB,
    CONSTRAINT "sso_login_states_organization_id_fkey" FOREIGN KEY ("organization_id") REFERENCES "organizations" ("id") ON DELETE CASCADE ON UPDATE CASCADE
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
CREATE TRIGGER "api_keys_control_plane_update" AFTER UPDATE OF "id", "organization_id", "project_id", "team_id", "name", "prefix", "last_four", "secret_hash", "created_by_user_id", "created_at", "expires_at", "revoked_at", "revoked_by_user_id" ON "api_keys" BEGIN UPDATE "control_plane_version" SET "version" = "version" + 1 WHERE "id" = 1; END;
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

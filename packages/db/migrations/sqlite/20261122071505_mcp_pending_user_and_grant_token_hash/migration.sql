-- RedefineTables
PRAGMA defer_foreign_keys=ON;
PRAGMA foreign_keys=OFF;
CREATE TABLE "new_mcp_servers" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "organization_id" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "url" TEXT NOT NULL,
    "transport" TEXT NOT NULL,
    "auth_kind" TEXT NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'disconnected',
    "status_message" TEXT,
    "oauth_metadata" JSONB,
    "oauth_client_registration" JSONB,
    "oauth_client_secret_ciphertext" TEXT,
    "tokens_ciphertext" TEXT,
    "tokens_expires_at" DATETIME,
    "pending_state_hash" TEXT,
    "pending_verifier_ciphertext" TEXT,
    "pending_redirect_uri" TEXT,
    "pending_expires_at" DATETIME,
    "pending_user_id" TEXT,
    "created_by_user_id" TEXT,
    "created_at" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" DATETIME NOT NULL,
    CONSTRAINT "mcp_servers_organization_id_fkey" FOREIGN KEY ("organization_id") REFERENCES "organizations" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "mcp_servers_pending_user_id_fkey" FOREIGN KEY ("pending_user_id") REFERENCES "users" ("id") ON DELETE SET NULL ON UPDATE CASCADE
);
INSERT INTO "new_mcp_servers" ("auth_kind", "created_at", "created_by_user_id", "id", "name", "oauth_client_registration", "oauth_client_secret_ciphertext", "oauth_metadata", "organization_id", "pending_expires_at", "pending_redirect_uri", "pending_state_hash", "pending_verifier_ciphertext", "status", "status_message", "tokens_ciphertext", "tokens_expires_at", "transport", "updated_at", "url") SELECT "auth_kind", "created_at", "created_by_user_id", "id", "name", "oauth_client_registration", "oauth_client_secret_ciphertext", "oauth_metadata", "organization_id", "pending_expires_at", "pending_redirect_uri", "pending_state_hash", "pending_verifier_ciphertext", "status", "status_message", "tokens_ciphertext", "tokens_expires_at", "transport", "updated_at", "url" FROM "mcp_servers";
DROP TABLE "mcp_servers";
ALTER TABLE "new_mcp_servers" RENAME TO "mcp_servers";
CREATE UNIQUE INDEX "mcp_servers_pending_state_hash_key" ON "mcp_servers"("pending_state_hash");
CREATE UNIQUE INDEX "mcp_servers_organization_id_name_key" ON "mcp_servers"("organization_id", "name");
CREATE TABLE "new_mcp_tokens" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "organization_id" TEXT NOT NULL,
    "server_id" TEXT,
    "user_id" TEXT,
    "name" TEXT NOT NULL,
    "prefix" TEXT NOT NULL,
    "token_hash" TEXT,
    "scopes" JSONB NOT NULL,
    "created_at" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "expires_at" DATETIME,
    "last_used_at" DATETIME,
    "revoked_at" DATETIME,
    "revoked_by_user_id" TEXT,
    CONSTRAINT "mcp_tokens_organization_id_fkey" FOREIGN KEY ("organization_id") REFERENCES "organizations" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "mcp_tokens_server_id_fkey" FOREIGN KEY ("server_id") REFERENCES "mcp_servers" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "mcp_tokens_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);
INSERT INTO "new_mcp_tokens" ("created_at", "expires_at", "id", "last_used_at", "name", "organization_id", "prefix", "revoked_at", "revoked_by_user_id", "scopes", "server_id", "token_hash", "user_id") SELECT "created_at", "expires_at", "id", "last_used_at", "name", "organization_id", "prefix", "revoked_at", "revoked_by_user_id", "scopes", "server_id", "token_hash", "user_id" FROM "mcp_tokens";
DROP TABLE "mcp_tokens";
ALTER TABLE "new_mcp_tokens" RENAME TO "mcp_tokens";
CREATE UNIQUE INDEX "mcp_tokens_token_hash_key" ON "mcp_tokens"("token_hash");
CREATE INDEX "mcp_tokens_organization_id_idx" ON "mcp_tokens"("organization_id");
PRAGMA foreign_keys=ON;
PRAGMA defer_foreign_keys=OFF;

-- Data: the pending OAuth user id used to live in oauth_metadata.pending_user_id.
UPDATE "mcp_servers" SET "pending_user_id" = json_extract("oauth_metadata", '$.pending_user_id')
  WHERE json_valid("oauth_metadata") AND json_extract("oauth_metadata", '$.pending_user_id') IN (SELECT "id" FROM "users");
UPDATE "mcp_servers" SET "oauth_metadata" = json_remove("oauth_metadata", '$.pending_user_id')
  WHERE json_valid("oauth_metadata") AND json_type("oauth_metadata", '$.pending_user_id') IS NOT NULL;

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

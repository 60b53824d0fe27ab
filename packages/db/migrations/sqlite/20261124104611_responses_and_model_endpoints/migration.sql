-- AlterTable
ALTER TABLE "connections" ADD COLUMN "model_endpoints" JSONB;
ALTER TABLE "connections" ADD COLUMN "responses_api" BOOLEAN;

-- CreateTable
CREATE TABLE "stored_responses" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "organization_id" TEXT NOT NULL,
    "project_id" TEXT NOT NULL,
    "api_key_id" TEXT NOT NULL,
    "created_at" DATETIME NOT NULL,
    "expires_at" DATETIME NOT NULL,
    "response" JSONB NOT NULL,
    "input_items" JSONB NOT NULL,
    "conversation" JSONB NOT NULL,
    CONSTRAINT "stored_responses_project_id_fkey" FOREIGN KEY ("project_id") REFERENCES "projects" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateIndex
CREATE INDEX "stored_responses_expires_at_idx" ON "stored_responses"("expires_at");

-- CreateIndex
CREATE INDEX "stored_responses_project_id_idx" ON "stored_responses"("project_id");

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

import { GatewayError } from "@gateway/errors";
import type { DatabaseClient } from "./create-database.js";
import { holdsValues, translateWrite } from "./repository-support.js";

export interface ProjectRecord {
  id: string;
  organizationId: string;
  name: string;
  description: string | null;
  captureContent: boolean;
  /** Days usage events are kept. */
  activityRetentionDays: number;
  /** Days captured content is kept. */
  contentRetentionDays: number;
  /** Captured bytes per call. */
  contentMaxBytes: number;
  createdAt: Date;
  updatedAt: Date;
}

export interface ProjectInput {
  organizationId: string;
  name: string;
  description?: string | null;
  captureContent?: boolean;
  activityRetentionDays?: number;
  contentRetentionDays?: number;
  contentMaxBytes?: number;
}

/** The retention and capture settings an input sets (absent ones keep the column defaults). */
function retentionSettings(input: Pick<ProjectInput, "activityRetentionDays" | "contentRetentionDays" | "contentMaxBytes">): Record<string, number> {
  const settings: Record<string, number> = {};
  if (input.activityRetentionDays !== undefined) settings.activityRetentionDays = input.activityRetentionDays;
  if (input.contentRetentionDays !== undefined) settings.contentRetentionDays = input.contentRetentionDays;
  if (input.contentMaxBytes !== undefined) settings.contentMaxBytes = input.contentMaxBytes;
  return settings;
}

/** Creates a project; 409 when the name exists in the organization. */
export async function createProject(db: DatabaseClient, input: ProjectInput): Promise<ProjectRecord> {
  return translateWrite("project", () =>
    db.prisma.project.create({ data: { organizationId: input.organizationId, name: input.name, description: input.description ?? null, captureContent: input.captureContent ?? false, ...retentionSettings(input) } }),
  );
}

/** Declarative config: creates or updates the project with this name in the organization (an unchanged one is not written). */
export async function upsertProjectByName(db: DatabaseClient, input: ProjectInput): Promise<ProjectRecord> {
  const update: Record<string, unknown> = {};
  if (input.description !== undefined) update.description = input.description;
  if (input.captureContent !== undefined) update.captureContent = input.captureContent;
  Object.assign(update, retentionSettings(input));
  const where = { organizationId_name: { organizationId: input.organizationId, name: input.name } };
  const existing = await db.prisma.project.findUnique({ where });
  if (existing && holdsValues(existing, update)) return existing;
  return db.prisma.project.upsert({
    where,
    create: { organizationId: input.organizationId, name: input.name, description: input.description ?? null, captureContent: input.captureContent ?? false, ...retentionSettings(input) },
    update,
  });
}

export async function listProjects(db: DatabaseClient, organizationId: string): Promise<ProjectRecord[]> {
  return db.prisma.project.findMany({ where: { organizationId }, orderBy: [{ createdAt: "asc" }, { id: "asc" }] });
}

export async function getProject(db: DatabaseClient, organizationId: string, id: string): Promise<ProjectRecord | null> {
  return db.prisma.project.findFirst({ where: { id, organizationId } });
}

export async function updateProject(
  db: DatabaseClient,
  organizationId: string,
  id: string,
  changes: { name?: string; description?: string | null; captureContent?: boolean; activityRetentionDays?: number; contentRetentionDays?: number; contentMaxBytes?: number },
): Promise<ProjectRecord> {
  return translateWrite("project", () => db.prisma.project.update({ where: { id, organizationId }, data: changes }));
}

/**
 * Deletes a project. Refused with 409 `conflict` while it has API keys that are not revoked
 * (revoke them first, so no caller is cut off by accident). Its revoked keys and project
 * memberships are deleted with it; usage and audit events stay. 404 when missing.
 */
export async function deleteProject(db: DatabaseClient, organizationId: string, id: string): Promise<void> {
  // One statement, so a key created concurrently cannot be cascaded away unnoticed.
  const deleted = await db.prisma.project.deleteMany({ where: { id, organizationId, apiKeys: { none: { revokedAt: null } } } });
  if (deleted.count === 1) return;
  const project = await db.prisma.project.findFirst({ where: { id, organizationId }, select: { id: true } });
  if (!project) throw new GatewayError("not_found", { message: "project not found" });
  const activeKeys = await db.prisma.apiKey.count({ where: { projectId: id, revokedAt: null } });
  throw new GatewayError("conflict", {
    message: "Revoke the project's API keys before deleting it.",
    details: { active_api_keys: activeKeys },
  });
}

import { activityRetentionDaysSchema, contentMaxBytesSchema, contentRetentionDaysSchema, createProject, deleteProject, getProject, listProjects, updateProject } from "@gateway/db";
import { z } from "zod";
import { deletedObjectSchema, displayName, idParams, iso, timestamp } from "../routing/common-schemas.js";
import { defineRoute, type DashboardRoute } from "../routing/dashboard-route.js";
import { fullList, listObjectSchema } from "../routing/list-page.js";
import type { DashboardServices } from "../services/dashboard-services.js";
import { auditChange, found, withConflict } from "./resource-helpers.js";

/** A project as the API shows it. */
export const projectSchema = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string().nullable(),
  capture_content: z.boolean(),
  activity_retention_days: z.number().int().describe("Days the project's calls stay in the activity"),
  content_retention_days: z.number().int().describe("Days captured content is kept"),
  content_max_bytes: z.number().int().describe("Captured bytes per call (request + response); longer content is cut and marked truncated"),
  created_at: timestamp,
  updated_at: timestamp,
  object: z.literal("project"),
});

interface ProjectRow {
  id: string;
  name: string;
  description: string | null;
  captureContent: boolean;
  activityRetentionDays: number;
  contentRetentionDays: number;
  contentMaxBytes: number;
  createdAt: Date;
  updatedAt: Date;
}

/** Renders a project row. */
export function presentProject(row: ProjectRow): z.infer<typeof projectSchema> {
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    capture_content: row.captureContent,
    activity_retention_days: row.activityRetentionDays,
    content_retention_days: row.contentRetentionDays,
    content_max_bytes: row.contentMaxBytes,
    created_at: iso(row.createdAt),
    updated_at: iso(row.updatedAt),
    object: "project",
  };
}

const createBody = z.object({
  name: displayName,
  description: z.string().max(2000).nullable().optional(),
  capture_content: z.boolean().default(false).describe("Store request and response content on usage events (never for decisions)."),
  activity_retention_days: activityRetentionDaysSchema.optional().describe("Days calls stay in the activity (default 30)"),
  content_retention_days: contentRetentionDaysSchema.optional().describe("Days captured content is kept (default 7)"),
  content_max_bytes: contentMaxBytesSchema.optional().describe("Captured bytes per call (default 65536)"),
});
const updateBody = z
  .object({
    name: displayName,
    description: z.string().max(2000).nullable(),
    capture_content: z.boolean(),
    activity_retention_days: activityRetentionDaysSchema,
    content_retention_days: contentRetentionDaysSchema,
    content_max_bytes: contentMaxBytesSchema,
  })
  .partial()
  .refine((value) => Object.keys(value).length > 0, "Send at least one field to change.");
const params = idParams("project_id");

/** Project routes: CRUD under `/api/projects`. */
export function createProjectRoutes(services: DashboardServices): DashboardRoute[] {
  const load = (organizationId: string, id: string) => getProject(services.database, organizationId, id).then((row) => found(row, "Project"));
  return [
    defineRoute({
      method: "post",
      path: "/api/projects",
      operationId: "create_project",
      summary: "Create a project",
      tag: "Projects",
      access: "projects:write",
      body: createBody,
      exampleBody: { name: "Support bot", capture_content: false },
      responses: [{ status: 201, description: "The project", schema: projectSchema }],
      async handler(context) {
        const { body, principal } = context;
        const row = await withConflict(
          () =>
            createProject(services.database, {
              organizationId: principal.organization.id,
              name: body.name,
              description: body.description ?? null,
              captureContent: body.capture_content,
              ...(body.activity_retention_days !== undefined ? { activityRetentionDays: body.activity_retention_days } : {}),
              ...(body.content_retention_days !== undefined ? { contentRetentionDays: body.content_retention_days } : {}),
              ...(body.content_max_bytes !== undefined ? { contentMaxBytes: body.content_max_bytes } : {}),
            }),
          "A project with this name already exists.",
          "name",
        );
        const after = presentProject(row);
        await auditChange(services, context, { action: "project.created", targetType: "project", targetId: row.id, after });
        return { status: 201, body: after };
      },
    }),
    defineRoute({
      method: "get",
      path: "/api/projects",
      operationId: "list_projects",
      summary: "List projects",
      tag: "Projects",
      access: "projects:read",
      responses: [{ status: 200, description: "Projects, oldest first", schema: listObjectSchema(projectSchema) }],
      async handler({ principal }) {
        return { status: 200, body: fullList((await listProjects(services.database, principal.organization.id)).map(presentProject)) };
      },
    }),
    defineRoute({
      method: "get",
      path: "/api/projects/{project_id}",
      operationId: "get_project",
      summary: "Get a project",
      tag: "Projects",
      access: "projects:read",
      params,
      responses: [{ status: 200, description: "The project", schema: projectSchema }],
      async handler({ principal, params: { project_id } }) {
        return { status: 200, body: presentProject(await load(principal.organization.id, project_id)) };
      },
    }),
    defineRoute({
      method: "patch",
      path: "/api/projects/{project_id}",
      operationId: "update_project",
      summary: "Update a project",
      tag: "Projects",
      access: "projects:write",
      params,
      body: updateBody,
      exampleBody: { description: "Answers support tickets" },
      responses: [{ status: 200, description: "The project", schema: projectSchema }],
      async handler(context) {
        const { principal, params: { project_id }, body } = context;
        const before = presentProject(await load(principal.organization.id, project_id));
        const row = await withConflict(
          () =>
            updateProject(services.database, principal.organization.id, project_id, {
              ...(body.name !== undefined ? { name: body.name } : {}),
              ...(body.description !== undefined ? { description: body.description } : {}),
              ...(body.capture_content !== undefined ? { captureContent: body.capture_content } : {}),
              ...(body.activity_retention_days !== undefined ? { activityRetentionDays: body.activity_retention_days } : {}),
              ...(body.content_retention_days !== undefined ? { contentRetentionDays: body.content_retention_days } : {}),
              ...(body.content_max_bytes !== undefined ? { contentMaxBytes: body.content_max_bytes } : {}),
            }),
          "A project with this name already exists.",
          "name",
        );
        const after = presentProject(row);
        await auditChange(services, context, { action: "project.updated", targetType: "project", targetId: row.id, before, after });
        return { status: 200, body: after };
      },
    }),
    defineRoute({
      method: "delete",
      path: "/api/projects/{project_id}",
      operationId: "delete_project",
      summary: "Delete a project",
      description: "Refused with 409 `conflict` while the project has API keys that are not revoked.",
      tag: "Projects",
      access: "projects:write",
      params,
      responses: [{ status: 200, description: "Deleted", schema: deletedObjectSchema("project") }],
      async handler(context) {
        const { principal, params: { project_id } } = context;
        const before = presentProject(await load(principal.organization.id, project_id));
        await deleteProject(services.database, principal.organization.id, project_id);
        await auditChange(services, context, { action: "project.deleted", targetType: "project", targetId: project_id, before });
        return { status: 200, body: { id: project_id, object: "project", deleted: true } };
      },
    }),
  ];
}

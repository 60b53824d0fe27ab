import { GatewayError } from "@gateway/errors";
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
  created_at: timestamp,
  updated_at: timestamp,
  object: z.literal("project"),
});

interface ProjectRow {
  id: string;
  name: string;
  description: string | null;
  captureContent: boolean;
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
    created_at: iso(row.createdAt),
    updated_at: iso(row.updatedAt),
    object: "project",
  };
}

const createBody = z.object({
  name: displayName,
  description: z.string().max(2000).nullable().optional(),
  capture_content: z.boolean().default(false).describe("Store request and response content on usage events (never for decisions)."),
});
const updateBody = z
  .object({ name: displayName, description: z.string().max(2000).nullable(), capture_content: z.boolean() })
  .partial()
  .refine((value) => Object.keys(value).length > 0, "Send at least one field to change.");
const params = idParams("project_id");

/** Project routes: CRUD under `/api/projects`. */
export function createProjectRoutes(services: DashboardServices): DashboardRoute[] {
  const load = (organizationId: string, id: string) =>
    services.prisma.project.findFirst({ where: { id, organizationId } }).then((row) => found(row, "Project"));
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
            services.prisma.project.create({
              data: { organizationId: principal.organization.id, name: body.name, description: body.description ?? null, captureContent: body.capture_content },
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
        const rows = await services.prisma.project.findMany({ where: { organizationId: principal.organization.id }, orderBy: [{ createdAt: "asc" }, { id: "asc" }] });
        return { status: 200, body: fullList(rows.map(presentProject)) };
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
            services.prisma.project.update({
              where: { id: project_id },
              data: {
                ...(body.name !== undefined ? { name: body.name } : {}),
                ...(body.description !== undefined ? { description: body.description } : {}),
                ...(body.capture_content !== undefined ? { captureContent: body.capture_content } : {}),
              },
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
        const activeKeys = await services.prisma.apiKey.count({ where: { projectId: project_id, revokedAt: null } });
        if (activeKeys > 0) {
          throw new GatewayError("conflict", {
            message: "Revoke the project's API keys before deleting it.",
            details: { active_api_keys: activeKeys },
          });
        }
        await services.prisma.project.delete({ where: { id: project_id } });
        await auditChange(services, context, { action: "project.deleted", targetType: "project", targetId: project_id, before });
        return { status: 200, body: { id: project_id, object: "project", deleted: true } };
      },
    }),
  ];
}

import { createApiKey, defaultMetadataSchema, getApiKey, getProject, listApiKeysPage, parseStoredMetadata, revokeApiKey, updateApiKey, type ApiKeyRecord } from "@gateway/db";
import { GatewayError } from "@gateway/errors";
import { z } from "zod";
import { canUseProject, type DashboardPrincipal } from "../auth/dashboard-principal.js";
import { displayName, idParams, iso, resourceId, timestamp } from "../routing/common-schemas.js";
import { defineRoute, type DashboardRoute } from "../routing/dashboard-route.js";
import { listObjectSchema, pageOf, paginationQueryShape } from "../routing/list-page.js";
import type { DashboardServices } from "../services/dashboard-services.js";
import { auditChange, found, notFound } from "./resource-helpers.js";

/** An API key as the API shows it (never the secret, except once in the create answer). */
export const apiKeySchema = z.object({
  id: z.string(),
  name: z.string(),
  prefix: z.string().describe("The first characters of the secret, for recognition"),
  last_four: z.string(),
  project_id: z.string(),
  team_id: z.string().nullable(),
  status: z.enum(["active", "expired", "revoked"]),
  created_by_user_id: z.string().nullable(),
  created_at: timestamp,
  updated_at: timestamp,
  last_used_at: timestamp
    .nullable()
    .describe("When the gateway last accepted a call with this key; recorded with the usage batches, at most once a minute per key (so up to a minute behind); null if never used"),
  expires_at: timestamp.nullable(),
  revoked_at: timestamp.nullable(),
  revoked_by_user_id: z.string().nullable(),
  default_metadata: z.record(z.string(), z.string()).describe("Recorded with every call of the key; the caller's `X-Gateway-Metadata` is merged over it"),
  object: z.literal("api_key"),
});

const createdApiKeySchema = apiKeySchema.extend({
  secret: z.string().describe("The full `gak_` secret. Shown only in this answer; store it now."),
});

/** Renders an API key. */
export function presentApiKey(row: ApiKeyRecord, now: Date = new Date()): z.infer<typeof apiKeySchema> {
  const status = row.revokedAt !== null ? "revoked" : row.expiresAt !== null && row.expiresAt <= now ? "expired" : "active";
  return {
    id: row.id,
    name: row.name,
    prefix: row.prefix,
    last_four: row.lastFour,
    project_id: row.projectId,
    team_id: row.teamId,
    status,
    created_by_user_id: row.createdByUserId,
    created_at: iso(row.createdAt),
    updated_at: iso(row.updatedAt),
    last_used_at: iso(row.lastUsedAt),
    expires_at: iso(row.expiresAt),
    revoked_at: iso(row.revokedAt),
    revoked_by_user_id: row.revokedByUserId,
    default_metadata: parseStoredMetadata(row.defaultMetadata),
    object: "api_key",
  };
}

const createBody = z.object({
  name: displayName,
  project_id: resourceId,
  team_id: resourceId.nullable().optional(),
  expires_at: z.iso.datetime({ offset: true }).nullable().optional().describe("When the key stops working (ISO 8601); null = never"),
  default_metadata: defaultMetadataSchema.optional().describe("Metadata recorded with every call of the key (at most 16 keys, string values of at most 256 characters)"),
});
const updateBody = z
  .object({ name: displayName, default_metadata: defaultMetadataSchema.describe("Replaces the key's default metadata") })
  .partial()
  .refine((value) => Object.keys(value).length > 0, "Send at least one field to change.");
const listQuery = z.object({
  ...paginationQueryShape,
  project_id: resourceId.optional(),
  status: z.enum(["active", "expired", "revoked"]).optional(),
});
const params = idParams("api_key_id");

function assertProjectAccess(principal: DashboardPrincipal, projectId: string): void {
  if (!canUseProject(principal, projectId)) {
    throw new GatewayError("permission_denied", { message: "You may only manage API keys of your own projects.", details: { project_id: projectId } });
  }
}

/** API key routes under `/api/api-keys`. */
export function createApiKeyRoutes(services: DashboardServices): DashboardRoute[] {
  const load = (organizationId: string, id: string) => getApiKey(services.database, organizationId, id).then((row) => found(row, "API key"));
  return [
    defineRoute({
      method: "post",
      path: "/api/api-keys",
      operationId: "create_api_key",
      summary: "Create an API key",
      description: "Answers the key with its `secret`, which is shown only this once (only its SHA-256 is stored).",
      tag: "API keys",
      access: "api_keys:write",
      body: createBody,
      exampleBody: { name: "production", project_id: "proj_example" },
      responses: [{ status: 201, description: "The new key, with its secret", schema: createdApiKeySchema }],
      async handler(context) {
        const { principal, body } = context;
        const organizationId = principal.organization.id;
        // Checked here too (createApiKey checks again) so an unknown project is 400 before the 403 of a member.
        if ((await getProject(services.database, organizationId, body.project_id)) === null) {
          throw new GatewayError("invalid_request", { message: "project_id does not name a project of this organization.", param: "project_id" });
        }
        assertProjectAccess(principal, body.project_id);
        const expiresAt = body.expires_at ? new Date(body.expires_at) : null;
        if (expiresAt !== null && expiresAt <= services.now()) {
          throw new GatewayError("invalid_request", { message: "expires_at must be in the future.", param: "expires_at" });
        }
        const { apiKey: row, secret } = await createApiKey(services.database, {
          organizationId,
          projectId: body.project_id,
          teamId: body.team_id ?? null,
          name: body.name,
          createdByUserId: principal.userId,
          expiresAt,
          ...(body.default_metadata !== undefined ? { defaultMetadata: body.default_metadata } : {}),
        });
        const after = presentApiKey(row, services.now());
        await auditChange(services, context, { action: "api_key.created", targetType: "api_key", targetId: row.id, after });
        return { status: 201, body: { ...after, secret }, headers: { "cache-control": "no-store" } };
      },
    }),
    defineRoute({
      method: "get",
      path: "/api/api-keys",
      operationId: "list_api_keys",
      summary: "List API keys",
      description: "Newest first; filter by `project_id` and `status`. Revoked keys stay listed as evidence.",
      tag: "API keys",
      access: "api_keys:read",
      query: listQuery,
      responses: [{ status: 200, description: "A page of keys", schema: listObjectSchema(apiKeySchema) }],
      async handler({ principal, query }) {
        const now = services.now();
        const page = await listApiKeysPage(services.database, {
          organizationId: principal.organization.id,
          ...(query.project_id ? { projectId: query.project_id } : {}),
          ...(query.status ? { status: query.status } : {}),
          limit: query.limit,
          ...(query.cursor ? { cursor: query.cursor } : {}),
          now,
        });
        return { status: 200, body: pageOf(page, (row) => presentApiKey(row, now)) };
      },
    }),
    defineRoute({
      method: "get",
      path: "/api/api-keys/{api_key_id}",
      operationId: "get_api_key",
      summary: "Get an API key",
      tag: "API keys",
      access: "api_keys:read",
      params,
      responses: [{ status: 200, description: "The key", schema: apiKeySchema }],
      async handler({ principal, params: { api_key_id } }) {
        return { status: 200, body: presentApiKey(await load(principal.organization.id, api_key_id), services.now()) };
      },
    }),
    defineRoute({
      method: "patch",
      path: "/api/api-keys/{api_key_id}",
      operationId: "update_api_key",
      summary: "Rename an API key",
      tag: "API keys",
      access: "api_keys:write",
      params,
      body: updateBody,
      exampleBody: { name: "production (rotated)" },
      responses: [{ status: 200, description: "The key", schema: apiKeySchema }],
      async handler(context) {
        const { principal, params: { api_key_id }, body } = context;
        const existing = await load(principal.organization.id, api_key_id);
        assertProjectAccess(principal, existing.projectId);
        const row = await updateApiKey(services.database, existing.organizationId, existing.id, {
          ...(body.name !== undefined ? { name: body.name } : {}),
          ...(body.default_metadata !== undefined ? { defaultMetadata: body.default_metadata } : {}),
        });
        const after = presentApiKey(row, services.now());
        await auditChange(services, context, { action: "api_key.updated", targetType: "api_key", targetId: row.id, before: presentApiKey(existing, services.now()), after });
        return { status: 200, body: after };
      },
    }),
    defineRoute({
      method: "delete",
      path: "/api/api-keys/{api_key_id}",
      operationId: "revoke_api_key",
      summary: "Revoke an API key (permanent)",
      description:
        "Permanently revokes the key: the gateway refuses it within one second (its control-plane snapshot reloads " +
        "on the change). The record is kept as audit evidence with `revoked_at` and `revoked_by_user_id`. Answers 200 " +
        "with the revoked key. Revoking a revoked key answers the same record unchanged.",
      tag: "API keys",
      access: "api_keys:write",
      params,
      responses: [{ status: 200, description: "The revoked key (status `revoked`)", schema: apiKeySchema }],
      async handler(context) {
        const { principal, params: { api_key_id } } = context;
        // Owners and admins may revoke any key of the organization: the revocation is the first
        // statement (no read before it). Others may only revoke keys of their projects.
        if (!principal.allProjects) assertProjectAccess(principal, (await load(principal.organization.id, api_key_id)).projectId);
        const { apiKey: row, revoked, before } = await revokeApiKey(services.database, {
          organizationId: principal.organization.id,
          id: api_key_id,
          revokedByUserId: principal.userId,
          now: services.now(),
        }).catch((error: unknown) => {
          throw GatewayError.isInstance(error) && error.code === "not_found" ? notFound("API key") : error;
        });
        const after = presentApiKey(row, services.now());
        if (revoked && before !== null) {
          await auditChange(services, context, { action: "api_key.revoked", targetType: "api_key", targetId: row.id, before: presentApiKey(before, services.now()), after });
        }
        return { status: 200, body: after };
      },
    }),
  ];
}

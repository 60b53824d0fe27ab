import { createPolicy, deletePolicy, getPolicy, listPolicies, updatePolicy, type PolicyRecord } from "@gateway/db";
import { guardrailsConfigSchema } from "@gateway/policy-engine";
import { z } from "zod";
import { deletedObjectSchema, idParams, iso, resourceId, timestamp } from "../routing/common-schemas.js";
import { defineRoute, type DashboardRoute } from "../routing/dashboard-route.js";
import { fullList, listObjectSchema } from "../routing/list-page.js";
import type { DashboardServices } from "../services/dashboard-services.js";
import { assertScopeBelongs, auditChange, found, withConflict } from "./resource-helpers.js";

const pattern = z.string().min(1).max(300).describe("Glob over provider-qualified model ids, e.g. `openai/*` or `*/anthropic/claude-*`");

/** A model policy as the API shows it. */
export const policySchema = z.object({
  id: z.string(),
  name: z.string(),
  scope: z.enum(["organization", "project", "key"]),
  scope_id: z.string(),
  allow: z.array(z.string()),
  deny: z.array(z.string()),
  guardrails: z.unknown().describe("Guardrails configuration (see the policy engine): `{rules:[...]}`"),
  created_at: timestamp,
  updated_at: timestamp,
  object: z.literal("policy"),
});

/** Renders a policy. */
export function presentPolicy(row: PolicyRecord): z.infer<typeof policySchema> {
  return {
    id: row.id,
    name: row.name,
    scope: row.scope,
    scope_id: row.scopeId,
    allow: row.allow,
    deny: row.deny,
    guardrails: row.guardrails ?? { rules: [] },
    created_at: iso(row.createdAt),
    updated_at: iso(row.updatedAt),
    object: "policy",
  };
}

/** The policy engine's guardrails schema as JSON Schema: documents `guardrails` (the web app validates its form with it). */
const guardrailsJsonSchema: Record<string, unknown> = (() => {
  const schema = z.toJSONSchema(guardrailsConfigSchema, { target: "draft-2020-12", io: "input", unrepresentable: "any" }) as Record<string, unknown>;
  delete schema.$schema;
  return schema;
})();

// Stored as given (validated), so the policy engine applies its own defaults when compiling.
const guardrailsInput = z
  .unknown()
  .superRefine((value, context) => {
    const result = guardrailsConfigSchema.safeParse(value);
    if (!result.success) for (const issue of result.error.issues) context.addIssue({ ...issue, code: "custom", message: issue.message, path: issue.path });
  })
  .meta(guardrailsJsonSchema);
const createBody = z.object({
  name: z.string().trim().max(200).default(""),
  scope: z.enum(["organization", "project", "key"]),
  scope_id: resourceId,
  allow: z.array(pattern).max(500).default([]).describe("Empty = every model not denied"),
  deny: z.array(pattern).max(500).default([]),
  guardrails: guardrailsInput.optional().describe("`{rules:[...]}` as the policy engine defines it"),
});
const updateBody = z
  .object({ name: z.string().trim().max(200), allow: z.array(pattern).max(500), deny: z.array(pattern).max(500), guardrails: guardrailsInput })
  .partial()
  .refine((value) => Object.keys(value).length > 0, "Send at least one field to change.");
const params = idParams("policy_id");

/** Policy routes under `/api/policies` (one policy per scope). */
export function createPolicyRoutes(services: DashboardServices): DashboardRoute[] {
  const load = (organizationId: string, id: string) => getPolicy(services.database, organizationId, id).then((row) => found(row, "Policy"));
  return [
    defineRoute({
      method: "post",
      path: "/api/policies",
      operationId: "create_policy",
      summary: "Create a model policy",
      description: "One policy per scope; a second one for the same scope is 409 `conflict`.",
      tag: "Policies",
      access: "policies:write",
      body: createBody,
      exampleBody: { scope: "organization", scope_id: "org_example", allow: ["openai/*"], deny: [], guardrails: { rules: [{ type: "secrets", action: "block" }] } },
      responses: [{ status: 201, description: "The policy", schema: policySchema }],
      async handler(context) {
        const { principal, body } = context;
        await assertScopeBelongs(services, principal.organization.id, body.scope, body.scope_id);
        const row = await withConflict(
          () =>
            createPolicy(services.database, {
              organizationId: principal.organization.id,
              name: body.name,
              scope: body.scope,
              scopeId: body.scope_id,
              allow: body.allow,
              deny: body.deny,
              guardrails: body.guardrails ?? { rules: [] },
            }),
          "This scope already has a policy; update it instead.",
          "scope_id",
        );
        const after = presentPolicy(row);
        await auditChange(services, context, { action: "policy.created", targetType: "policy", targetId: row.id, after });
        return { status: 201, body: after };
      },
    }),
    defineRoute({
      method: "get",
      path: "/api/policies",
      operationId: "list_policies",
      summary: "List model policies",
      tag: "Policies",
      access: "policies:read",
      responses: [{ status: 200, description: "Policies", schema: listObjectSchema(policySchema) }],
      async handler({ principal }) {
        return { status: 200, body: fullList((await listPolicies(services.database, principal.organization.id)).map(presentPolicy)) };
      },
    }),
    defineRoute({
      method: "get",
      path: "/api/policies/{policy_id}",
      operationId: "get_policy",
      summary: "Get a model policy",
      tag: "Policies",
      access: "policies:read",
      params,
      responses: [{ status: 200, description: "The policy", schema: policySchema }],
      async handler({ principal, params: { policy_id } }) {
        return { status: 200, body: presentPolicy(await load(principal.organization.id, policy_id)) };
      },
    }),
    defineRoute({
      method: "patch",
      path: "/api/policies/{policy_id}",
      operationId: "update_policy",
      summary: "Update a model policy",
      tag: "Policies",
      access: "policies:write",
      params,
      body: updateBody,
      exampleBody: { deny: ["*/openai/gpt-4o"] },
      responses: [{ status: 200, description: "The policy", schema: policySchema }],
      async handler(context) {
        const { principal, params: { policy_id }, body } = context;
        const existing = await load(principal.organization.id, policy_id);
        const row = await updatePolicy(services.database, existing.organizationId, existing.id, {
          ...(body.name !== undefined ? { name: body.name } : {}),
          ...(body.allow !== undefined ? { allow: body.allow } : {}),
          ...(body.deny !== undefined ? { deny: body.deny } : {}),
          ...(body.guardrails !== undefined ? { guardrails: body.guardrails } : {}),
        });
        const after = presentPolicy(row);
        await auditChange(services, context, { action: "policy.updated", targetType: "policy", targetId: row.id, before: presentPolicy(existing), after });
        return { status: 200, body: after };
      },
    }),
    defineRoute({
      method: "delete",
      path: "/api/policies/{policy_id}",
      operationId: "delete_policy",
      summary: "Delete a model policy",
      tag: "Policies",
      access: "policies:write",
      params,
      responses: [{ status: 200, description: "Deleted", schema: deletedObjectSchema("policy") }],
      async handler(context) {
        const { principal, params: { policy_id } } = context;
        const existing = await load(principal.organization.id, policy_id);
        await deletePolicy(services.database, existing.organizationId, existing.id);
        await auditChange(services, context, { action: "policy.deleted", targetType: "policy", targetId: existing.id, before: presentPolicy(existing) });
        return { status: 200, body: { id: existing.id, object: "policy", deleted: true } };
      },
    }),
  ];
}

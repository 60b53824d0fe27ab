import {
  deleteSsoConfiguration,
  getSsoClientCredential,
  getSsoConfiguration,
  listProjects,
  listTeams,
  readSsoTestResult,
  upsertSsoConfiguration,
  type SsoConfigurationRecord,
} from "@gateway/db";
import { GatewayError } from "@gateway/errors";
import { outboundAddressPolicyFromEnvironment } from "@gateway/provider-adapters";
import { z } from "zod";
import { defineRoute, type DashboardRoute } from "../../routing/dashboard-route.js";
import type { DashboardServices } from "../../services/dashboard-services.js";
import { recordAuditEvent } from "../../services/record-audit-event.js";
import { roles } from "../role-permissions.js";
import { checkSsoIssuerUrl } from "./check-sso-issuer-url.js";
import { beginSsoFlow, ssoCallbackUrl } from "./sso-routes.js";
import { checkSsoPrivateJwk, generateSsoClientKey, publicJwkOf } from "./sso-provider-client.js";

const group = z.string().trim().min(1).max(256);
const domain = z
  .string()
  .trim()
  .toLowerCase()
  .regex(/^(?=.{1,253}$)([a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/, "must be a domain such as example.com");

/** Body of `PUT /api/sso-configuration`. */
export const ssoConfigurationBody = z.strictObject({
  enabled: z.boolean().optional(),
  issuer_url: z.string().trim().min(1).max(2000).describe("The provider's issuer; its discovery document is read from `<issuer>/.well-known/openid-configuration`."),
  client_id: z.string().trim().min(1).max(500),
  client_auth_method: z.enum(["client_secret_basic", "client_secret_post", "private_key_jwt"]).default("client_secret_basic"),
  client_secret: z.string().min(1).max(4096).optional().describe("Write-only; stored encrypted. Omit to keep the stored one."),
  private_key: z
    .string()
    .min(1)
    .max(16_384)
    .optional()
    .describe("`private_key_jwt`: a private JWK (EC P-256 or RSA) as JSON, stored encrypted. Omitted with no key stored: a P-256 key pair is generated and its public JWK answered."),
  scopes: z.array(z.string().regex(/^[\x21\x23-\x5B\x5D-\x7E]{1,100}$/, "must be a scope token")).max(30).default(["openid", "email", "profile"]),
  allowed_email_domains: z.array(domain).max(100).default([]).describe("Email domains that may sign in, and that `POST /v1/auth/sso/discover` answers for. [] = any (and no discovery)."),
  groups_claim: z.string().trim().min(1).max(200).default("groups"),
  role_mappings: z.array(z.strictObject({ group, role: z.enum(roles) })).max(200).default([]).describe("When any is given, the role follows the groups at every sign-in (most powerful match, else `default_role`)."),
  team_mappings: z.array(z.strictObject({ group, team_id: z.string().min(1).max(64) })).max(200).default([]),
  project_mappings: z.array(z.strictObject({ group, project_id: z.string().min(1).max(64) })).max(200).default([]),
  jit_provisioning: z.boolean().default(false).describe("Create members at their first sign-in; off: an invitation is needed."),
  default_role: z.enum(roles).default("member"),
});

/** The `sso_configuration` object. */
export const ssoConfigurationSchema = z.object({
  object: z.literal("sso_configuration"),
  id: z.string(),
  enabled: z.boolean(),
  issuer_url: z.string(),
  client_id: z.string(),
  client_auth_method: z.enum(["client_secret_basic", "client_secret_post", "private_key_jwt"]),
  has_client_secret: z.boolean(),
  public_jwk: z.record(z.string(), z.unknown()).nullable().describe("`private_key_jwt`: the public key to register at the provider."),
  redirect_uri: z.string().describe("The callback URL to register at the provider."),
  scopes: z.array(z.string()),
  allowed_email_domains: z.array(z.string()),
  groups_claim: z.string(),
  role_mappings: z.array(z.object({ group: z.string(), role: z.string() })),
  team_mappings: z.array(z.object({ group: z.string(), team_id: z.string() })),
  project_mappings: z.array(z.object({ group: z.string(), project_id: z.string() })),
  jit_provisioning: z.boolean(),
  default_role: z.string(),
  owner_signed_in_at: z.string().nullable().describe("When an owner last signed in through this provider: requiring single sign-on needs it."),
  created_at: z.string(),
  updated_at: z.string(),
});

const testStartSchema = z.object({ object: z.literal("sso.test_start"), authorization_url: z.string() });
const testParams = z.object({ test_id: z.string().min(1).max(64) });

async function present(services: DashboardServices, record: SsoConfigurationRecord): Promise<z.infer<typeof ssoConfigurationSchema>> {
  let publicJwk: Record<string, unknown> | null = null;
  if (record.clientAuthMethod === "private_key_jwt" && record.hasClientCredential) {
    const credential = await getSsoClientCredential(services.database, record.organizationId, { secretBox: services.secrets });
    publicJwk = credential === null ? null : publicJwkOf(credential);
  }
  return {
    object: "sso_configuration",
    id: record.id,
    enabled: record.enabled,
    issuer_url: record.issuerUrl,
    client_id: record.clientId,
    client_auth_method: record.clientAuthMethod,
    has_client_secret: record.clientAuthMethod !== "private_key_jwt" && record.hasClientCredential,
    public_jwk: publicJwk,
    redirect_uri: ssoCallbackUrl(services),
    scopes: record.scopes,
    allowed_email_domains: record.allowedEmailDomains,
    groups_claim: record.groupsClaim,
    role_mappings: record.roleMappings,
    team_mappings: record.teamMappings,
    project_mappings: record.projectMappings,
    jit_provisioning: record.jitProvisioning,
    default_role: record.defaultRole,
    owner_signed_in_at: record.ownerSignedInAt?.toISOString() ?? null,
    created_at: record.createdAt.toISOString(),
    updated_at: record.updatedAt.toISOString(),
  };
}

function outboundPolicy() {
  try {
    return outboundAddressPolicyFromEnvironment();
  } catch {
    return { privateAddresses: "deny" as const };
  }
}

/** The organization's single sign-on settings: read, write, remove, and the test run. */
export function createSsoConfigurationRoutes(services: DashboardServices): DashboardRoute[] {
  const notConfigured = () => new GatewayError("not_found", { message: "Single sign-on is not configured for this organization." });
  return [
    defineRoute({
      method: "get",
      path: "/api/sso-configuration",
      operationId: "get_sso_configuration",
      summary: "The organization's single sign-on",
      description: "`null` when none is configured. The client secret is never answered (`has_client_secret`).",
      tag: "Single sign-on",
      access: "organization:read",
      responses: [{ status: 200, description: "The configuration, or null", schema: ssoConfigurationSchema.nullable() }],
      async handler({ principal }) {
        const record = await getSsoConfiguration(services.database, principal.organization.id);
        return { status: 200, body: record === null ? null : await present(services, record) };
      },
    }),
    defineRoute({
      method: "put",
      path: "/api/sso-configuration",
      operationId: "put_sso_configuration",
      summary: "Configure single sign-on (OpenID Connect)",
      description:
        "Creates or replaces the organization's OpenID Connect single sign-on. The issuer must be https (http only on localhost) and " +
        "allowed by the outbound address policy. Changing the issuer or client id means an owner has to sign in through it again " +
        "before single sign-on can be required. Team and project mappings must name this organization's teams and projects.",
      tag: "Single sign-on",
      access: "organization:write",
      body: ssoConfigurationBody,
      // A closed loopback port: the route walks of the tests store it and reach nothing.
      exampleBody: { issuer_url: "http://127.0.0.1:9", client_id: "gateway-dashboard", client_secret: "example-client-secret", allowed_email_domains: ["example.com"] },
      responses: [{ status: 200, description: "The configuration", schema: ssoConfigurationSchema }],
      async handler(context) {
        const { principal, body } = context;
        const organizationId = principal.organization.id;
        const issuerProblem = checkSsoIssuerUrl(body.issuer_url, outboundPolicy());
        if (issuerProblem !== null) throw new GatewayError("invalid_request", { message: issuerProblem, param: "issuer_url" });
        const teamIds = new Set((await listTeams(services.database, organizationId)).map((team) => team.id));
        const projectIds = new Set((await listProjects(services.database, organizationId)).map((project) => project.id));
        for (const [index, mapping] of body.team_mappings.entries()) {
          if (!teamIds.has(mapping.team_id)) throw new GatewayError("invalid_request", { message: `team_mappings[${index}].team_id names no team of this organization.`, param: `team_mappings.${index}.team_id` });
        }
        for (const [index, mapping] of body.project_mappings.entries()) {
          if (!projectIds.has(mapping.project_id)) {
            throw new GatewayError("invalid_request", { message: `project_mappings[${index}].project_id names no project of this organization.`, param: `project_mappings.${index}.project_id` });
          }
        }
        const existing = await getSsoConfiguration(services.database, organizationId);
        let clientCredential: string | null | undefined;
        if (body.client_auth_method === "private_key_jwt") {
          if (body.client_secret !== undefined) throw new GatewayError("invalid_request", { message: "private_key_jwt uses private_key, not client_secret.", param: "client_secret" });
          if (body.private_key !== undefined) {
            const problem = checkSsoPrivateJwk(body.private_key);
            if (problem !== null) throw new GatewayError("invalid_request", { message: problem, param: "private_key" });
            clientCredential = body.private_key;
          } else if (existing?.clientAuthMethod !== "private_key_jwt" || !existing.hasClientCredential) {
            clientCredential = generateSsoClientKey().privateJwk;
          }
        } else {
          if (body.private_key !== undefined) throw new GatewayError("invalid_request", { message: "private_key is only for private_key_jwt.", param: "private_key" });
          if (body.client_secret !== undefined) clientCredential = body.client_secret;
          else if (existing?.clientAuthMethod === "private_key_jwt") clientCredential = null;
          if (clientCredential === null || (clientCredential === undefined && !existing?.hasClientCredential)) {
            throw new GatewayError("invalid_request", { message: `client_secret is required for ${body.client_auth_method}.`, param: "client_secret" });
          }
        }
        const before = existing === null ? null : await present(services, existing);
        const record = await upsertSsoConfiguration(
          services.database,
          {
            organizationId,
            ...(body.enabled === undefined ? {} : { enabled: body.enabled }),
            issuerUrl: body.issuer_url,
            clientId: body.client_id,
            clientAuthMethod: body.client_auth_method,
            ...(clientCredential === undefined ? {} : { clientCredential }),
            scopes: body.scopes,
            allowedEmailDomains: body.allowed_email_domains,
            groupsClaim: body.groups_claim,
            roleMappings: body.role_mappings,
            teamMappings: body.team_mappings,
            projectMappings: body.project_mappings,
            jitProvisioning: body.jit_provisioning,
            defaultRole: body.default_role,
          },
          { secretBox: services.secrets },
        );
        const after = await present(services, record);
        await recordAuditEvent(services, context, { organizationId, actorId: principal.userId, action: "sso_configuration.updated", targetType: "sso_configuration", targetId: record.id, before, after });
        return { status: 200, body: after };
      },
    }),
    defineRoute({
      method: "delete",
      path: "/api/sso-configuration",
      operationId: "delete_sso_configuration",
      summary: "Remove single sign-on",
      description: "Refused with 409 `conflict` while the organization requires single sign-on (switch it to password first).",
      tag: "Single sign-on",
      access: "organization:write",
      responses: [{ status: 204, description: "Removed" }],
      async handler(context) {
        const { principal } = context;
        const existing = await getSsoConfiguration(services.database, principal.organization.id);
        if (existing === null) throw notConfigured();
        const organization = await services.database.prisma.organization.findUnique({ where: { id: principal.organization.id }, select: { authenticationRequired: true } });
        if (organization?.authenticationRequired === "sso") {
          throw new GatewayError("conflict", { message: "The organization requires single sign-on: set authentication_required to password before removing it." });
        }
        await deleteSsoConfiguration(services.database, principal.organization.id);
        await recordAuditEvent(services, context, {
          organizationId: principal.organization.id,
          actorId: principal.userId,
          action: "sso_configuration.deleted",
          targetType: "sso_configuration",
          targetId: existing.id,
          before: await present(services, existing),
        });
        return { status: 204 };
      },
    }),
    defineRoute({
      method: "post",
      path: "/api/sso-configuration/test",
      operationId: "start_sso_test",
      summary: "Test single sign-on",
      description:
        "Starts the sign-in flow with the stored configuration without signing anyone in: open `authorization_url` in this browser; " +
        "the provider sends it back to the web app's Settings page with `sso_test=<id>`, and `GET /api/sso-configuration/tests/{test_id}` " +
        "answers the claims received and what they map to. Works while the configuration is switched off.",
      tag: "Single sign-on",
      access: "organization:write",
      responses: [
        { status: 200, description: "Where to send the browser", schema: testStartSchema },
        { status: 502, description: "The identity provider is unreachable (`sso_provider_unavailable`)" },
      ],
      async handler({ principal, request, response }) {
        const url = await beginSsoFlow(services, { organizationId: principal.organization.id, purpose: "test", userId: principal.userId, request, response });
        return { status: 200, body: { object: "sso.test_start", authorization_url: url.toString() } };
      },
    }),
    defineRoute({
      method: "get",
      path: "/api/sso-configuration/tests/{test_id}",
      operationId: "get_sso_test_result",
      summary: "A test run's claims",
      description: "Only the person who started the test run can read it; 404 `not_found` before the provider sent the browser back.",
      tag: "Single sign-on",
      access: "organization:write",
      params: testParams,
      responses: [{ status: 200, description: "The claims received and what they map to", schema: z.object({ object: z.literal("sso.test_result") }).passthrough() }],
      async handler({ principal, params }) {
        const result = await readSsoTestResult(services.database, { id: params.test_id, organizationId: principal.organization.id, userId: principal.userId });
        if (result === null) throw new GatewayError("not_found", { message: "No finished test run with this id." });
        return { status: 200, body: result };
      },
    }),
  ];
}

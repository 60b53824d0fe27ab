import { monitorRuleFieldsShape } from "@gateway/contracts";
import { checkConnectionSettings, providerKindSchema } from "@gateway/provider-adapters";
import {
  budgetAmountUsdSchema,
  budgetThresholdsSchema,
  connectionDefaultMaxTokensSchema,
  connectionTimeoutsSchema,
  isApiKeyFormat,
  maxRouteTargets,
  modelEndpointsSchema,
  modelPriceBounds,
  rateLimitConcurrencySchema,
  rateLimitPerWindowSchema,
  rateLimitWindowSecondsSchema,
  routeAffinityTtlSecondsSchema,
  routeRetryMaxAttemptsSchema,
  routeTargetWeightSchema,
  activityRetentionDaysSchema,
  contentRetentionDaysSchema,
  contentMaxBytesSchema,
  defaultMetadataSchema,
} from "@gateway/db/data-plane";
import { z } from "zod";

const name = z.string().trim().min(1).max(200);
const slug = z
  .string()
  .regex(/^[a-z0-9][a-z0-9-]{0,62}$/, "must be 1 to 63 lower-case letters, digits or hyphens, starting with a letter or digit");
/** A secret given inline or as `env:NAME` (resolved from the environment at start). */
const secretReference = z.string().min(1);
const gatewayKey = z
  .string()
  .refine(
    (value) => isApiKeyFormat(value) || /^env:[A-Za-z_][A-Za-z0-9_]*$/.test(value),
    "must be a gateway key ('gak_' followed by at least 43 letters or digits) or an 'env:NAME' reference",
  );
const globPattern = z.string().min(1).max(500);

// Numeric bounds are the dashboard's (`@gateway/db`'s control-plane bounds), checked before anything is written.
const modelPrice = z.strictObject(modelPriceBounds);

const user = z.strictObject({
  email: z.string().email(),
  name: name.optional(),
  role: z.enum(["owner", "admin", "member", "viewer"]).default("member"),
  /** Inline or `env:NAME`; stored hashed. Without it the account cannot sign in with a password. */
  password: secretReference.optional(),
});

const apiKey = z.strictObject({
  name,
  /** A `gak_` secret or `env:NAME`; stored hashed. Missing: generated on first apply and printed once. */
  secret: gatewayKey.optional(),
  team: name.optional(),
  expiresAt: z.coerce.date().optional(),
  /** Stored revoked (the gateway refuses it); revocation is permanent, removing the flag does not undo it. */
  revoked: z.boolean().default(false),
  /** Metadata recorded with every call of the key (the caller's `X-Gateway-Metadata` is merged over it). */
  defaultMetadata: defaultMetadataSchema.optional(),
});

const project = z.strictObject({
  name,
  captureContent: z.boolean().default(false),
  /** Days calls stay in the activity (default 30). */
  activityRetentionDays: activityRetentionDaysSchema.optional(),
  /** Days captured content is kept (default 7). */
  contentRetentionDays: contentRetentionDaysSchema.optional(),
  /** Captured bytes per call, request + response (default 65536). */
  contentMaxBytes: contentMaxBytesSchema.optional(),
  apiKeys: z.array(apiKey).default([]),
});

const connection = z.strictObject({
  name: z.string().regex(/^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/, "must be 1 to 64 letters, digits, '.', '_' or '-' (no '/')"),
  kind: providerKindSchema,
  baseUrl: z.string().url().optional(),
  /** `env:NAME` (recommended) or inline; stored encrypted. */
  credential: secretReference.optional(),
  headers: z.record(z.string(), z.string()).default({}),
  models: z.array(z.string().regex(/^[^/\s]+\/\S+$/, "must be '<vendor>/<model>'")).default([]),
  upstreamModelNames: z.record(z.string(), z.string()).default({}),
  enabled: z.boolean().default(true),
  prices: z.record(z.string(), modelPrice).default({}),
  /** `openai`: false when the upstream rejects `logprobs` (decisions then use stated probabilities). */
  logprobs: z.boolean().optional(),
  /** `anthropic`: `max_tokens` for translated requests that set no output cap (default 4096). */
  defaultMaxTokens: connectionDefaultMaxTokensSchema.optional(),
  /** Upstream timeouts in ms (connectMs, totalMs, firstByteMs, idleMs, maxDurationMs); unset: global settings. */
  timeouts: connectionTimeoutsSchema.default({}),
  /** `openai`: whether the upstream serves the Responses API; unset: only OpenAI's own API does. */
  responsesApi: z.boolean().optional(),
  /** What each model answers (`chat`, `responses`, `embeddings`), keyed by `<vendor>/<model>`; unset: by its name. */
  modelEndpoints: modelEndpointsSchema.default({}),
  /** The provider's own settings (azure-openai: deployments, apiVersion, entra, ...), checked by the kind's settings schema; no secrets (`credential` carries them). */
  settings: z.record(z.string(), z.unknown()).default({}),
}).transform((value, context) => {
  const checked = checkConnectionSettings(value.kind, value.settings);
  if (checked.ok) return { ...value, settings: checked.settings };
  context.addIssue({ code: "custom", path: ["settings", ...checked.issue.path], message: checked.issue.message });
  return z.NEVER;
});

const route = z.strictObject({
  alias: z.string().regex(/^[^/\s]+(\/[^/\s]+)?$/, "must not contain two '/' (that is a provider-qualified model)"),
  strategy: z.enum(["priority", "weighted", "least-latency"]).default("priority"),
  targets: z
    .array(
      z.strictObject({
        model: z.string().regex(/^[^/\s]+\/[^/\s]+\/\S+$/, "must be a provider-qualified model '<provider>/<vendor>/<model>'"),
        weight: routeTargetWeightSchema.default(1),
      }),
    )
    .min(1)
    .max(maxRouteTargets),
  affinity: z.strictObject({ enabled: z.boolean().default(false), ttlSeconds: routeAffinityTtlSecondsSchema.default(3600) }).default({
    enabled: false,
    ttlSeconds: 3600,
  }),
  retry: z.strictObject({ maxAttempts: routeRetryMaxAttemptsSchema.default(1) }).default({ maxAttempts: 1 }),
});

/** Where a policy, budget or rate limit is attached: the organization, a project or a key (by name). */
const scoped = {
  scope: z.enum(["organization", "project", "key", "team"]),
  project: name.optional(),
  key: name.optional(),
  team: name.optional(),
};

/** A scope needs the names that identify it: `project` for project, `project` + `key` for key, `team` for team. */
function requireScopeNames(value: { scope: string; project?: string; key?: string; team?: string }, context: z.RefinementCtx) {
  const need = (field: "project" | "key" | "team") => {
    if (value[field] === undefined) {
      context.addIssue({ code: "custom", path: [field], message: `is required when scope is '${value.scope}'` });
    }
  };
  if (value.scope === "project" || value.scope === "key") need("project");
  if (value.scope === "key") need("key");
  if (value.scope === "team") need("team");
}

const policy = z
  .strictObject({
    ...scoped,
    scope: z.enum(["organization", "project", "key"]),
    allow: z.array(globPattern).default([]),
    deny: z.array(globPattern).default([]),
    guardrails: z.unknown().optional(),
  })
  .superRefine(requireScopeNames);

const budget = z
  .strictObject({
    ...scoped,
    name,
    amountUsd: budgetAmountUsdSchema,
    period: z.enum(["day", "week", "month", "total"]),
    mode: z.enum(["hard", "soft"]),
    thresholds: budgetThresholdsSchema.default([]),
  })
  .superRefine(requireScopeNames);

const rateLimit = z
  .strictObject({
    ...scoped,
    scope: z.enum(["project", "key"]),
    windowSeconds: rateLimitWindowSecondsSchema.default(60),
    requestsPerWindow: rateLimitPerWindowSchema.nullable().default(null),
    tokensPerWindow: rateLimitPerWindowSchema.nullable().default(null),
    concurrency: rateLimitConcurrencySchema.nullable().default(null),
  })
  .superRefine(requireScopeNames);

/**
 * A monitor: the dashboard's rule (`/api/monitors`) by name. The scope names what it looks at
 * (project, key and team by name, connection by name, model and client label by value);
 * `each: true` evaluates it per value instead. `channels` names notification channels created in
 * the dashboard. A monitor's mute stays the dashboard's.
 */
const monitor = z
  .strictObject({
    name,
    description: monitorRuleFieldsShape.description.optional(),
    metric: monitorRuleFieldsShape.metric,
    scope: z.enum(["organization", "project", "team", "key", "model", "connection", "clientLabel"]),
    project: name.optional(),
    key: name.optional(),
    team: name.optional(),
    connection: name.optional(),
    model: z.string().trim().min(1).max(300).optional(),
    clientLabel: z.string().trim().min(1).max(300).optional(),
    each: z.boolean().default(false),
    windowMinutes: monitorRuleFieldsShape.window_minutes,
    comparator: monitorRuleFieldsShape.comparator,
    threshold: monitorRuleFieldsShape.threshold,
    minCalls: monitorRuleFieldsShape.min_calls.default(null),
    severity: monitorRuleFieldsShape.severity.default("warning"),
    channels: z.array(name).max(20).default([]),
    renotifyMinutes: monitorRuleFieldsShape.renotify_minutes.default(null),
    enabled: z.boolean().default(true),
  })
  .superRefine((value, context) => {
    if (value.scope === "organization" || value.each) return;
    if (value.scope === "key") {
      if (value.project === undefined) context.addIssue({ code: "custom", path: ["project"], message: "is required when scope is 'key'" });
      if (value.key === undefined) context.addIssue({ code: "custom", path: ["key"], message: "is required when scope is 'key'" });
      return;
    }
    if (value[value.scope] === undefined) {
      context.addIssue({ code: "custom", path: [value.scope], message: `is required when scope is '${value.scope}' (or set each: true)` });
    }
  });

const role = z.enum(["owner", "admin", "member", "viewer"]);
const ssoGroup = z.string().trim().min(1).max(256);

/** OpenID Connect single sign-on of the organization (the dashboard's `PUT /api/sso-configuration`). */
const singleSignOn = z
  .strictObject({
    enabled: z.boolean().default(true),
    /** https, or http on localhost only; discovery at `<issuerUrl>/.well-known/openid-configuration`. */
    issuerUrl: z
      .string()
      .url()
      .refine((value) => {
        const url = new URL(value);
        const local = url.hostname === "localhost" || url.hostname === "[::1]" || /^127\.\d+\.\d+\.\d+$/.test(url.hostname);
        return url.protocol === "https:" || (url.protocol === "http:" && local);
      }, "must use https (plain http only for a provider on localhost)"),
    clientId: z.string().min(1).max(500),
    clientAuthMethod: z.enum(["client_secret_basic", "client_secret_post", "private_key_jwt"]).default("client_secret_basic"),
    /** `env:NAME` (recommended) or inline; stored encrypted. */
    clientSecret: secretReference.optional(),
    /** `private_key_jwt`: a private JWK as JSON, `env:NAME` (recommended) or inline; stored encrypted. */
    privateKey: secretReference.optional(),
    scopes: z.array(z.string().min(1).max(100)).default(["openid", "email", "profile"]),
    allowedEmailDomains: z.array(z.string().trim().toLowerCase().min(1).max(253)).default([]),
    groupsClaim: z.string().min(1).max(200).default("groups"),
    roleMappings: z.array(z.strictObject({ group: ssoGroup, role })).default([]),
    /** Team names of this organization. */
    teamMappings: z.array(z.strictObject({ group: ssoGroup, team: name })).default([]),
    /** Project names of this organization. */
    projectMappings: z.array(z.strictObject({ group: ssoGroup, project: name })).default([]),
    jitProvisioning: z.boolean().default(false),
    defaultRole: role.default("member"),
  })
  .superRefine((value, context) => {
    if (value.clientAuthMethod === "private_key_jwt" && value.privateKey === undefined) {
      context.addIssue({ code: "custom", path: ["privateKey"], message: "is required for private_key_jwt" });
    }
    if (value.clientAuthMethod !== "private_key_jwt" && value.clientSecret === undefined) {
      context.addIssue({ code: "custom", path: ["clientSecret"], message: `is required for ${value.clientAuthMethod}` });
    }
  });

const organization = z.strictObject({
  slug,
  name,
  users: z.array(user).default([]),
  teams: z.array(z.strictObject({ name })).default([]),
  projects: z.array(project).default([]),
  connections: z.array(connection).default([]),
  routes: z.array(route).default([]),
  policies: z.array(policy).default([]),
  budgets: z.array(budget).default([]),
  rateLimits: z.array(rateLimit).default([]),
  monitors: z.array(monitor).default([]),
  singleSignOn: singleSignOn.optional(),
});

/**
 * The declarative configuration file (`GATEWAY_CONFIG`, YAML or JSON). Every entity is keyed
 * by its natural key (organization slug; user email; project, connection, budget and key
 * names; route alias; scope for policies and rate limits), so applying the file twice changes
 * nothing the second time. Unknown fields are errors (typos must not pass silently).
 */
export const gatewayConfigSchema = z.strictObject({
  version: z.literal(1).default(1),
  organizations: z.array(organization).default([]),
});

/** A parsed configuration file. */
export type GatewayConfig = z.infer<typeof gatewayConfigSchema>;
/** One organization of the configuration file. */
export type GatewayConfigOrganization = GatewayConfig["organizations"][number];

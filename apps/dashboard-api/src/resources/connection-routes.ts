import type { ModelPrice } from "@gateway/contracts";
import type { ConnectionTimeouts } from "@gateway/contracts";
import {
  type ConnectionRecord,
  connectionDefaultMaxTokensSchema,
  modelEndpointsSchema,
  modelPriceBounds,
  connectionTimeoutsSchema,
  createConnection,
  deleteConnection,
  getConnection,
  getConnectionCredential,
  listConnections,
  SecretBoxError,
  updateConnection,
} from "@gateway/db";
import { GatewayError } from "@gateway/errors";
import {
  type AdapterConnection,
  type ConnectionTestRequest,
  OutboundAddressRefusedError,
  checkConnectionSettings,
  connectionApiUrl,
  defaultOutboundFetch,
  providerKindSchema,
  providerOf,
  providerSettingsOf,
} from "@gateway/provider-adapters";
import { z } from "zod";
import { deletedObjectSchema, idParams, iso, timestamp } from "../routing/common-schemas.js";
import { defineRoute, type DashboardRoute } from "../routing/dashboard-route.js";
import { fullList, listObjectSchema } from "../routing/list-page.js";
import type { DashboardServices } from "../services/dashboard-services.js";
import { checkOutboundUrlIssue } from "./outbound-url-check.js";
import { auditChange, found, withConflict } from "./resource-helpers.js";

const modelId = z.string().regex(/^[A-Za-z0-9._:-]+\/[A-Za-z0-9._:@-]+$/, "use '<vendor>/<model>'").max(200);
/** A model's price entry, with the bounds the configuration file shares (`@gateway/db`), under snake_case names. */
const priceSchema = z.object({
  input: modelPriceBounds.input.describe("USD per million input tokens"),
  output: modelPriceBounds.output.describe("USD per million output tokens"),
  cache_read: modelPriceBounds.cacheRead,
  cache_write: modelPriceBounds.cacheWrite,
  max_output_tokens: modelPriceBounds.maxOutputTokens,
  context_window: modelPriceBounds.contextWindow,
});
/** The stored timeouts' bounds (shared with the configuration file), under the API's snake_case names. */
const timeoutFields = {
  connect_ms: connectionTimeoutsSchema.shape.connectMs.describe("TCP/TLS connect timeout"),
  total_ms: connectionTimeoutsSchema.shape.totalMs.describe("JSON calls: the whole upstream call"),
  first_byte_ms: connectionTimeoutsSchema.shape.firstByteMs.describe("Streams: until the first event"),
  idle_ms: connectionTimeoutsSchema.shape.idleMs.describe("Streams: longest silence between events"),
  max_duration_ms: connectionTimeoutsSchema.shape.maxDurationMs.describe("Streams: longest whole stream (0: no limit)"),
} as const;
const timeoutsSchema = z
  .strictObject(timeoutFields)
  .describe("Upstream timeouts in milliseconds; a field left out takes the gateway's global setting");
const timeoutNames = { connect_ms: "connectMs", total_ms: "totalMs", first_byte_ms: "firstByteMs", idle_ms: "idleMs", max_duration_ms: "maxDurationMs" } as const;

function presentTimeouts(timeouts: ConnectionTimeouts): z.infer<typeof timeoutsSchema> {
  const result: z.infer<typeof timeoutsSchema> = {};
  for (const [apiName, storedName] of Object.entries(timeoutNames) as [keyof typeof timeoutNames, keyof ConnectionTimeouts][]) {
    const value = timeouts[storedName];
    if (value !== undefined) result[apiName] = value;
  }
  return result;
}

function storeTimeouts(timeouts: z.infer<typeof timeoutsSchema>): ConnectionTimeouts {
  const result: ConnectionTimeouts = {};
  for (const [apiName, storedName] of Object.entries(timeoutNames) as [keyof typeof timeoutNames, keyof ConnectionTimeouts][]) {
    const value = timeouts[apiName];
    if (value !== undefined) result[storedName] = value;
  }
  return result;
}

const headerName = z.string().regex(/^[A-Za-z0-9-]{1,100}$/, "a header name");
const connectionName = z
  .string()
  .regex(/^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/, "1-64 letters, digits, '.', '_' or '-' (the <provider> segment of model ids)");

/** What each model answers, keyed by `<vendor>/<model>` (the bounds the stored column and the configuration file share). */
const modelEndpointsBodySchema = modelEndpointsSchema.describe(
  "What each model answers (chat, responses, embeddings), keyed by <vendor>/<model>; a model left out: embeddings when its name contains 'embed', else chat and responses",
);

/** A connection's provider settings (checked against its kind's settings schema; no secrets). */
const settingsBodySchema = z
  .record(z.string(), z.unknown())
  .describe(
    "The provider's own settings (azure-openai: deployments, apiVersion, entra, ...; see GET /api/connection-kinds for each kind's schema); {} for kinds without settings. Secrets go in `credential`",
  );

/** Checks `settings` against the kind's settings schema: what is stored, or 400 naming the bad field. */
function checkSettings(kind: string, settings: Record<string, unknown>): Record<string, unknown> {
  const checked = checkConnectionSettings(kind, settings);
  if (checked.ok) return checked.settings;
  const param = ["settings", ...checked.issue.path].join(".");
  throw new GatewayError("invalid_request", { message: `${param}: ${checked.issue.message}`, param });
}

/** A provider connection as the API shows it (never the credential). */
export const connectionSchema = z.object({
  id: z.string(),
  name: z.string(),
  kind: providerKindSchema,
  base_url: z.string().nullable(),
  has_credential: z.boolean(),
  headers: z.record(z.string(), z.string()),
  models: z.array(z.string()),
  upstream_model_names: z.record(z.string(), z.string()),
  prices: z.record(z.string(), priceSchema),
  enabled: z.boolean(),
  logprobs: z.boolean().nullable().describe("openai: false when the upstream rejects logprobs (decisions use stated probabilities); null: measured"),
  default_max_tokens: z.number().int().nullable().describe("anthropic: max_tokens for translated requests without an output cap; null: 4096"),
  timeouts: timeoutsSchema,
  responses_api: z.boolean().nullable().describe("openai: whether the upstream serves the Responses API (POST /responses); null: only OpenAI's own API does"),
  model_endpoints: modelEndpointsBodySchema,
  settings: settingsBodySchema,
  created_at: timestamp,
  updated_at: timestamp,
  object: z.literal("connection"),
});

const testResultSchema = z.object({
  connection_id: z.string(),
  ok: z.boolean().describe("The provider answered 2xx to an authenticated model listing"),
  status_code: z.number().int().nullable(),
  latency_ms: z.number().int(),
  message: z.string(),
  object: z.literal("connection.test"),
});

function presentPrices(value: Record<string, ModelPrice>): Record<string, z.infer<typeof priceSchema>> {
  const result: Record<string, z.infer<typeof priceSchema>> = {};
  for (const [model, price] of Object.entries(value)) {
    result[model] = {
      input: price.input,
      output: price.output,
      ...(price.cacheRead !== undefined ? { cache_read: price.cacheRead } : {}),
      ...(price.cacheWrite !== undefined ? { cache_write: price.cacheWrite } : {}),
      ...(price.maxOutputTokens !== undefined ? { max_output_tokens: price.maxOutputTokens } : {}),
      ...(price.contextWindow !== undefined ? { context_window: price.contextWindow } : {}),
    };
  }
  return result;
}

function storePrices(prices: Record<string, z.infer<typeof priceSchema>>): Record<string, ModelPrice> {
  return Object.fromEntries(
    Object.entries(prices).map(([model, price]) => [
      model,
      {
        input: price.input,
        output: price.output,
        ...(price.cache_read !== undefined ? { cacheRead: price.cache_read } : {}),
        ...(price.cache_write !== undefined ? { cacheWrite: price.cache_write } : {}),
        ...(price.max_output_tokens !== undefined ? { maxOutputTokens: price.max_output_tokens } : {}),
        ...(price.context_window !== undefined ? { contextWindow: price.context_window } : {}),
      },
    ]),
  );
}

/** Renders a connection. */
export function presentConnection(row: ConnectionRecord): z.infer<typeof connectionSchema> {
  return {
    id: row.id,
    name: row.name,
    kind: row.kind,
    base_url: row.baseUrl,
    has_credential: row.hasCredential,
    headers: row.headers,
    models: row.models,
    upstream_model_names: row.upstreamModelNames,
    prices: presentPrices(row.prices),
    enabled: row.enabled,
    logprobs: row.logprobs,
    default_max_tokens: row.defaultMaxTokens,
    timeouts: presentTimeouts(row.timeouts),
    responses_api: row.responsesApi,
    model_endpoints: row.modelEndpoints,
    settings: row.settings,
    created_at: iso(row.createdAt),
    updated_at: iso(row.updatedAt),
    object: "connection",
  };
}

// The host must pass the outbound address policy (link-local and metadata addresses never).
const httpUrl = z.url({ protocol: /^https?$/ }).max(2000).superRefine(checkOutboundUrlIssue);
const createBody = z.object({
  name: connectionName,
  kind: providerKindSchema,
  base_url: httpUrl
    .nullable()
    .optional()
    .describe("Default: the provider's public API (openai, anthropic); required for systemone. With or without `/v1`: `https://api.openai.com` and `https://api.openai.com/v1` are the same"),
  credential: z.string().min(1).max(10_000).nullable().optional().describe("The provider API key; write-only, stored encrypted"),
  headers: z.record(headerName, z.string().max(2000)).default({}).describe("Extra headers sent upstream (not encrypted: put secrets in `credential`)"),
  models: z.array(modelId).max(1000).default([]),
  upstream_model_names: z.record(modelId, z.string().min(1).max(200)).default({}),
  prices: z.record(modelId, priceSchema).default({}),
  enabled: z.boolean().default(true),
  logprobs: z.boolean().nullable().default(null),
  default_max_tokens: connectionDefaultMaxTokensSchema.nullable().default(null),
  timeouts: timeoutsSchema.default({}),
  responses_api: z.boolean().nullable().default(null),
  model_endpoints: modelEndpointsBodySchema.default({}),
  settings: settingsBodySchema.default({}),
});
const updateBody = z
  .object({
    name: connectionName,
    base_url: httpUrl.nullable(),
    credential: z.string().min(1).max(10_000).nullable(),
    headers: z.record(headerName, z.string().max(2000)),
    models: z.array(modelId).max(1000),
    upstream_model_names: z.record(modelId, z.string().min(1).max(200)),
    prices: z.record(modelId, priceSchema),
    enabled: z.boolean(),
    logprobs: z.boolean().nullable(),
    default_max_tokens: connectionDefaultMaxTokensSchema.nullable(),
    timeouts: timeoutsSchema.describe("Replaces the stored timeouts; {} returns every one to the global setting"),
    responses_api: z.boolean().nullable(),
    model_endpoints: modelEndpointsBodySchema.describe("Replaces the stored model endpoints; {} returns every model to the default by its name"),
    settings: settingsBodySchema.describe("Replaces the stored provider settings (checked against the connection kind's settings schema)"),
  })
  .partial()
  .refine((value) => Object.keys(value).length > 0, "Send at least one field to change.");
const params = idParams("connection_id");

/** Connection routes under `/api/connections`, with the connectivity test. */
export function createConnectionRoutes(services: DashboardServices): DashboardRoute[] {
  const load = (organizationId: string, id: string) => getConnection(services.database, organizationId, id).then((row) => found(row, "Connection"));
  const secretBox = { secretBox: services.secrets };
  return [
    defineRoute({
      method: "post",
      path: "/api/connections",
      operationId: "create_connection",
      summary: "Create a provider connection",
      tag: "Connections",
      access: "connections:write",
      body: createBody,
      exampleBody: { name: "openai", kind: "openai", credential: "sk-example", models: ["openai/gpt-4o-mini"], upstream_model_names: { "openai/gpt-4o-mini": "gpt-4o-mini" } },
      responses: [{ status: 201, description: "The connection", schema: connectionSchema }],
      async handler(context) {
        const { principal, body } = context;
        // A provider that calls an upstream without a public API of its own (systemone) needs the connection's.
        const provider = providerOf(body.kind);
        if (provider !== undefined && provider.network && provider.defaultBaseUrl === null && !body.base_url) {
          throw new GatewayError("invalid_request", { message: `A ${body.kind} connection needs base_url.`, param: "base_url" });
        }
        const settings = checkSettings(body.kind, body.settings);
        const row = await withConflict(
          () =>
            createConnection(
              services.database,
              {
                organizationId: principal.organization.id,
                name: body.name,
                kind: body.kind,
                baseUrl: body.base_url ?? null,
                credential: body.credential || null,
                headers: body.headers,
                models: body.models,
                upstreamModelNames: body.upstream_model_names,
                prices: storePrices(body.prices),
                enabled: body.enabled,
                logprobs: body.logprobs,
                defaultMaxTokens: body.default_max_tokens,
                timeouts: storeTimeouts(body.timeouts),
                responsesApi: body.responses_api,
                modelEndpoints: body.model_endpoints,
                settings,
              },
              secretBox,
            ),
          "A connection with this name already exists.",
          "name",
        );
        const after = presentConnection(row);
        await auditChange(services, context, { action: "connection.created", targetType: "connection", targetId: row.id, after });
        return { status: 201, body: after };
      },
    }),
    defineRoute({
      method: "get",
      path: "/api/connections",
      operationId: "list_connections",
      summary: "List provider connections",
      tag: "Connections",
      access: "connections:read",
      responses: [{ status: 200, description: "Connections", schema: listObjectSchema(connectionSchema) }],
      async handler({ principal }) {
        return { status: 200, body: fullList((await listConnections(services.database, principal.organization.id)).map(presentConnection)) };
      },
    }),
    defineRoute({
      method: "get",
      path: "/api/connections/{connection_id}",
      operationId: "get_connection",
      summary: "Get a provider connection",
      tag: "Connections",
      access: "connections:read",
      params,
      responses: [{ status: 200, description: "The connection", schema: connectionSchema }],
      async handler({ principal, params: { connection_id } }) {
        return { status: 200, body: presentConnection(await load(principal.organization.id, connection_id)) };
      },
    }),
    defineRoute({
      method: "patch",
      path: "/api/connections/{connection_id}",
      operationId: "update_connection",
      summary: "Update a provider connection",
      description: "`credential: null` removes the stored credential; omitting it keeps it.",
      tag: "Connections",
      access: "connections:write",
      params,
      body: updateBody,
      exampleBody: { enabled: false },
      responses: [{ status: 200, description: "The connection", schema: connectionSchema }],
      async handler(context) {
        const { principal, params: { connection_id }, body } = context;
        const existing = await load(principal.organization.id, connection_id);
        const settings = body.settings === undefined ? undefined : checkSettings(existing.kind, body.settings);
        const row = await withConflict(
          () =>
            updateConnection(
              services.database,
              existing.organizationId,
              existing.id,
              {
                ...(body.name !== undefined ? { name: body.name } : {}),
                ...(body.base_url !== undefined ? { baseUrl: body.base_url } : {}),
                ...(body.credential !== undefined ? { credential: body.credential } : {}),
                ...(body.headers !== undefined ? { headers: body.headers } : {}),
                ...(body.models !== undefined ? { models: body.models } : {}),
                ...(body.upstream_model_names !== undefined ? { upstreamModelNames: body.upstream_model_names } : {}),
                ...(body.prices !== undefined ? { prices: storePrices(body.prices) } : {}),
                ...(body.enabled !== undefined ? { enabled: body.enabled } : {}),
                ...(body.logprobs !== undefined ? { logprobs: body.logprobs } : {}),
                ...(body.default_max_tokens !== undefined ? { defaultMaxTokens: body.default_max_tokens } : {}),
                ...(body.timeouts !== undefined ? { timeouts: storeTimeouts(body.timeouts) } : {}),
                ...(body.responses_api !== undefined ? { responsesApi: body.responses_api } : {}),
                ...(body.model_endpoints !== undefined ? { modelEndpoints: body.model_endpoints } : {}),
                ...(settings !== undefined ? { settings } : {}),
              },
              secretBox,
            ),
          "A connection with this name already exists.",
          "name",
        );
        const after = presentConnection(row);
        await auditChange(services, context, { action: "connection.updated", targetType: "connection", targetId: row.id, before: presentConnection(existing), after });
        return { status: 200, body: after };
      },
    }),
    defineRoute({
      method: "delete",
      path: "/api/connections/{connection_id}",
      operationId: "delete_connection",
      summary: "Delete a provider connection",
      tag: "Connections",
      access: "connections:write",
      params,
      responses: [{ status: 200, description: "Deleted", schema: deletedObjectSchema("connection") }],
      async handler(context) {
        const { principal, params: { connection_id } } = context;
        const existing = await load(principal.organization.id, connection_id);
        await deleteConnection(services.database, existing.organizationId, existing.id);
        await auditChange(services, context, { action: "connection.deleted", targetType: "connection", targetId: existing.id, before: presentConnection(existing) });
        return { status: 200, body: { id: existing.id, object: "connection", deleted: true } };
      },
    }),
    defineRoute({
      method: "post",
      path: "/api/connections/{connection_id}/test",
      operationId: "test_connection",
      summary: "Test a provider connection",
      description:
        "Lists the provider's models with the stored credential (`GET {base_url}/v1/models`, the base URL given with or without `/v1`; " +
        "OpenAI-compatible and System One with a bearer token, Anthropic with `x-api-key`). `ok` is false (not an HTTP error) when " +
        "the provider refuses, fails or does not answer in time, or when the outbound address policy refuses the address " +
        "the base URL resolves to (nothing is sent then). Providers with signed or token credentials (Azure OpenAI with Entra ID, Bedrock, " +
        "Vertex AI) send their own authenticated request instead, through the same policy. The demo provider always passes.",
      tag: "Connections",
      access: "connections:write",
      params,
      responses: [{ status: 200, description: "The test result", schema: testResultSchema }],
      async handler(context) {
        const { principal, params: { connection_id } } = context;
        const existing = await load(principal.organization.id, connection_id);
        const result = await testConnectivity(services, existing);
        await auditChange(services, context, { action: "connection.tested", targetType: "connection", targetId: existing.id, after: result });
        return { status: 200, body: result };
      },
    }),
  ];
}

async function testConnectivity(services: DashboardServices, row: ConnectionRecord): Promise<z.infer<typeof testResultSchema>> {
  const started = Date.now();
  const kind = row.kind;
  const result = (ok: boolean, statusCode: number | null, message: string) => ({
    connection_id: row.id,
    ok,
    status_code: statusCode,
    latency_ms: Date.now() - started,
    message,
    object: "connection.test" as const,
  });
  const provider = providerOf(kind);
  if (provider === undefined) return result(false, null, `No provider of kind '${kind}' is installed.`);
  if (!provider.network) return result(true, null, `The built-in ${kind} provider needs no network.`);
  const base = row.baseUrl ?? provider.defaultBaseUrl ?? "";
  if (base === "") return result(false, null, "The connection has no base_url.");
  let credential: string | null;
  try {
    credential = await getConnectionCredential(services.database, row.organizationId, row.id, { secretBox: services.secrets });
  } catch (error) {
    // A ciphertext that is not this row's (copied from another row) or under a missing key: a result, not a 500.
    if (!(error instanceof SecretBoxError)) throw error;
    return result(false, null, "The stored credential cannot be decrypted for this connection (missing key, or not written for this connection); set the credential again.");
  }
  const signal = AbortSignal.timeout(services.settings.deliveryTimeoutMs);
  // Through the outbound address policy: the credential only goes to an address it allows.
  const outboundFetch = services.outboundFetch ?? defaultOutboundFetch();
  const policyFetch: typeof fetch = (input, init) => outboundFetch(input, { redirect: "manual", ...init, signal });
  try {
    const request = await connectionTestRequest(provider, row, credential, policyFetch);
    const response = await policyFetch(request.url, { method: request.method, headers: request.headers, ...(request.body !== undefined ? { body: request.body } : {}) });
    await response.arrayBuffer().catch(() => undefined);
    if (response.ok) return result(true, response.status, "Connected: the provider listed its models.");
    if (response.status === 401 || response.status === 403) return result(false, response.status, `The provider refused the credential (${response.status}).`);
    return result(false, response.status, `The provider answered ${response.status}.`);
  } catch (error) {
    if (signal.aborted) return result(false, null, `No answer within ${services.settings.deliveryTimeoutMs} ms.`);
    const refused = OutboundAddressRefusedError.find(error);
    if (refused !== null) return result(false, null, `Refused by the outbound address policy: ${refused.reason}`);
    // A provider's own test (a token request refused): its message, which the provider keeps free of secrets.
    if (GatewayError.isInstance(error)) {
      const upstreamStatus = error.details?.upstreamStatus;
      return result(false, typeof upstreamStatus === "number" ? upstreamStatus : null, error.message);
    }
    const code = (error as { cause?: { code?: unknown } }).cause?.code;
    return result(false, null, typeof code === "string" ? `Connection failed (${code}).` : "Connection failed.");
  }
}

/**
 * The request that tests a connection: the provider's own (signed or token credentials), else
 * `GET {api root}/models` with the credential as the adapters send it (bearer token, Anthropic's
 * `x-api-key` and version), the base URL taken with or without `/v1` as the adapters take it.
 */
async function connectionTestRequest(
  provider: NonNullable<ReturnType<typeof providerOf>>,
  row: ConnectionRecord,
  credential: string | null,
  fetch: typeof globalThis.fetch,
): Promise<ConnectionTestRequest> {
  if (provider.connectionTest !== undefined) {
    const connection: AdapterConnection = {
      id: row.id,
      name: row.name,
      kind: row.kind,
      baseUrl: row.baseUrl,
      credential,
      headers: row.headers,
      models: row.models,
      upstreamModelNames: row.upstreamModelNames,
      timeouts: row.timeouts,
      settings: row.settings,
    };
    const request = await provider.connectionTest(connection, providerSettingsOf(provider, connection), { fetch });
    return { ...request, headers: { accept: "application/json", ...row.headers, ...request.headers } };
  }
  const base = row.baseUrl ?? provider.defaultBaseUrl ?? "";
  return {
    url: connectionApiUrl(row.kind, base, "/models"),
    method: "GET",
    headers: { accept: "application/json", ...row.headers, ...provider.credentialHeaders(credential) },
  };
}

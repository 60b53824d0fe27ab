import { GatewayError } from "@gateway/errors";
import type { DatabaseClient } from "./create-database.js";
import { CONNECTION_KINDS } from "./enums.js";
import type { ConnectionTimeouts, ModelEndpoint, ModelPrice } from "@gateway/contracts";
import { connectionSettingsSchema, connectionTimeoutsSchema, modelEndpointsSchema, modelPriceRecordSchema, parseJsonColumn, stringArraySchema, stringRecordSchema } from "./json-values.js";
import { holdsValues, requireOneOf, translateWrite } from "./repository-support.js";
import type { SecretBox } from "./secret-box.js";
import { connectionCredentialBinding, newBoundRowId } from "./secret-bindings.js";

/** A provider connection as the dashboard sees it: the credential is never returned, only whether one is set. */
export interface ConnectionRecord {
  id: string;
  organizationId: string;
  name: string;
  /** One of the registered provider kinds (checked on every read and write). */
  kind: (typeof CONNECTION_KINDS)[number];
  baseUrl: string | null;
  hasCredential: boolean;
  headers: Record<string, string>;
  models: string[];
  upstreamModelNames: Record<string, string>;
  prices: Record<string, ModelPrice>;
  enabled: boolean;
  /** `openai`: false when the upstream rejects `logprobs`; null: measured log-probabilities. */
  logprobs: boolean | null;
  /** `anthropic`: `max_tokens` for translated requests without a cap; null: the adapter default. */
  defaultMaxTokens: number | null;
  /** Upstream timeouts; absent fields take the gateway's global settings. */
  timeouts: ConnectionTimeouts;
  /** `openai`: whether the upstream serves the Responses API; null: only OpenAI's own API does. */
  responsesApi: boolean | null;
  /** What each model answers (`chat`, `responses`, `embeddings`); a model left out: by its name. */
  modelEndpoints: Record<string, ModelEndpoint[]>;
  /** The provider's own non-secret settings (`{}` for providers without settings). */
  settings: Record<string, unknown>;
  createdAt: Date;
  updatedAt: Date;
}

export interface ConnectionInput {
  organizationId: string;
  name: string;
  kind: string;
  baseUrl?: string | null;
  /** Plain credential; encrypted with the secret box before it is stored. null clears it. */
  credential?: string | null;
  headers?: Record<string, string>;
  models?: string[];
  upstreamModelNames?: Record<string, string>;
  prices?: Record<string, ModelPrice>;
  enabled?: boolean;
  logprobs?: boolean | null;
  defaultMaxTokens?: number | null;
  /** Replaces the stored timeouts; `{}` clears them (global settings apply). */
  timeouts?: ConnectionTimeouts;
  responsesApi?: boolean | null;
  /** Replaces the stored model endpoints; `{}` clears them. */
  modelEndpoints?: Record<string, ModelEndpoint[]>;
  /** Replaces the stored provider settings (checked by the caller against the kind's settings schema). */
  settings?: Record<string, unknown>;
}

const CONNECTION_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;

type ConnectionRow = Awaited<ReturnType<DatabaseClient["prisma"]["connection"]["findFirstOrThrow"]>>;

function toRecord(row: ConnectionRow): ConnectionRecord {
  const where = `connections ${row.id}`;
  return {
    id: row.id,
    organizationId: row.organizationId,
    name: row.name,
    kind: requireOneOf(CONNECTION_KINDS, row.kind, "kind"),
    baseUrl: row.baseUrl,
    hasCredential: row.credentialCiphertext !== null,
    headers: parseJsonColumn(stringRecordSchema, row.headers, `${where} headers`),
    models: parseJsonColumn(stringArraySchema, row.models, `${where} models`),
    upstreamModelNames: parseJsonColumn(stringRecordSchema, row.upstreamModelNames, `${where} upstream_model_names`),
    prices: parseJsonColumn(modelPriceRecordSchema, row.prices, `${where} prices`) as Record<string, ModelPrice>,
    enabled: row.enabled,
    logprobs: row.logprobs,
    defaultMaxTokens: row.defaultMaxTokens,
    timeouts: row.timeouts === null ? {} : parseJsonColumn(connectionTimeoutsSchema, row.timeouts, `${where} timeouts`),
    responsesApi: row.responsesApi,
    modelEndpoints: row.modelEndpoints === null ? {} : (parseJsonColumn(modelEndpointsSchema, row.modelEndpoints, `${where} model_endpoints`) as Record<string, ModelEndpoint[]>),
    settings: parseJsonColumn(connectionSettingsSchema, row.settings, `${where} settings`),
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
  };
}

function validateName(name: string): void {
  if (!CONNECTION_NAME.test(name)) {
    throw new GatewayError("invalid_request", {
      message: "name must be 1-64 characters of letters, digits, '.', '_' or '-' (it is the <provider> segment of model ids; no '/')",
      param: "name",
    });
  }
}

function toData(input: Partial<ConnectionInput>, secretBox: SecretBox, binding: { organizationId: string; id: string }): Record<string, unknown> {
  const data: Record<string, unknown> = {};
  if (input.name !== undefined) {
    validateName(input.name);
    data.name = input.name;
  }
  if (input.kind !== undefined) data.kind = requireOneOf(CONNECTION_KINDS, input.kind, "kind");
  if (input.baseUrl !== undefined) data.baseUrl = input.baseUrl;
  if (input.credential !== undefined) {
    data.credentialCiphertext = input.credential === null ? null : secretBox.encrypt(input.credential, connectionCredentialBinding(binding.organizationId, binding.id));
  }
  if (input.headers !== undefined) data.headers = input.headers;
  if (input.models !== undefined) data.models = input.models;
  if (input.upstreamModelNames !== undefined) data.upstreamModelNames = input.upstreamModelNames;
  if (input.prices !== undefined) data.prices = input.prices;
  if (input.enabled !== undefined) data.enabled = input.enabled;
  if (input.logprobs !== undefined) data.logprobs = input.logprobs;
  if (input.defaultMaxTokens !== undefined) data.defaultMaxTokens = input.defaultMaxTokens;
  if (input.timeouts !== undefined) data.timeouts = input.timeouts;
  if (input.responsesApi !== undefined) data.responsesApi = input.responsesApi;
  if (input.modelEndpoints !== undefined) data.modelEndpoints = modelEndpointsSchema.parse(input.modelEndpoints);
  if (input.settings !== undefined) data.settings = connectionSettingsSchema.parse(input.settings);
  return data;
}

function createData(input: ConnectionInput, secretBox: SecretBox, id: string) {
  return {
    headers: {},
    models: [],
    upstreamModelNames: {},
    prices: {},
    ...toData(input, secretBox, { organizationId: input.organizationId, id }),
    id,
    organizationId: input.organizationId,
  } as unknown as Parameters<DatabaseClient["prisma"]["connection"]["create"]>[0]["data"];
}

/** Creates a connection (credential encrypted, bound to the new row); 409 when the name exists in the organization. */
export async function createConnection(db: DatabaseClient, input: ConnectionInput, options: { secretBox: SecretBox }): Promise<ConnectionRecord> {
  return toRecord(await translateWrite("connection", () => db.prisma.connection.create({ data: createData(input, options.secretBox, newBoundRowId()) })));
}

/**
 * Declarative config: creates or replaces the connection with this name in the organization. A
 * connection that already holds every given value is not written (a given credential always is:
 * leave it out when it is unchanged).
 */
export async function upsertConnectionByName(db: DatabaseClient, input: ConnectionInput, options: { secretBox: SecretBox }): Promise<ConnectionRecord> {
  const { organizationId: _organizationId, ...changes } = input;
  const where = { organizationId_name: { organizationId: input.organizationId, name: input.name } };
  const existing = await db.prisma.connection.findUnique({ where });
  const id = existing?.id ?? newBoundRowId();
  const update = toData(changes, options.secretBox, { organizationId: input.organizationId, id });
  if (existing && holdsValues(existing, update)) return toRecord(existing);
  let row = await db.prisma.connection.upsert({ where, create: createData(input, options.secretBox, id), update });
  if (row.id !== id && input.credential !== undefined && input.credential !== null) {
    // Created by someone else in between: bind the credential to the row that exists.
    row = await db.prisma.connection.update({
      where: { id: row.id },
      data: { credentialCiphertext: options.secretBox.encrypt(input.credential, connectionCredentialBinding(row.organizationId, row.id)) },
    });
  }
  return toRecord(row);
}

export async function listConnections(db: DatabaseClient, organizationId: string): Promise<ConnectionRecord[]> {
  return (await db.prisma.connection.findMany({ where: { organizationId }, orderBy: [{ createdAt: "asc" }, { id: "asc" }] })).map(toRecord);
}

export async function getConnection(db: DatabaseClient, organizationId: string, id: string): Promise<ConnectionRecord | null> {
  const row = await db.prisma.connection.findFirst({ where: { id, organizationId } });
  return row ? toRecord(row) : null;
}

/** The decrypted credential of a connection (for the connectivity test). null when none is set or the connection is missing. */
export async function getConnectionCredential(db: DatabaseClient, organizationId: string, id: string, options: { secretBox: SecretBox }): Promise<string | null> {
  const row = await db.prisma.connection.findFirst({ where: { id, organizationId }, select: { credentialCiphertext: true } });
  return row?.credentialCiphertext ? options.secretBox.decrypt(row.credentialCiphertext, connectionCredentialBinding(organizationId, id)) : null;
}

/** Updates a connection; `credential: undefined` keeps the stored one. 404 / 409 as usual. */
export async function updateConnection(
  db: DatabaseClient,
  organizationId: string,
  id: string,
  changes: Partial<Omit<ConnectionInput, "organizationId">>,
  options: { secretBox: SecretBox },
): Promise<ConnectionRecord> {
  return toRecord(await translateWrite("connection", () => db.prisma.connection.update({ where: { id, organizationId }, data: toData(changes, options.secretBox, { organizationId, id }) })));
}

export async function deleteConnection(db: DatabaseClient, organizationId: string, id: string): Promise<void> {
  await translateWrite("connection", () => db.prisma.connection.delete({ where: { id, organizationId } }));
}

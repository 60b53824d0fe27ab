import { hash } from "node:crypto";
import { GatewayError } from "@gateway/errors";
import type { CompiledSnapshot } from "../runtime/compile-snapshot.js";
import type { SnapshotApiKey, SnapshotMcpToken, SnapshotOrganization, SnapshotProject } from "@gateway/contracts";
import { readHeader, type RequestHeaders } from "./request-headers.js";

/** Who is calling: the key and the project and organization it belongs to. */
export interface CallerIdentity {
  apiKey: SnapshotApiKey;
  project: SnapshotProject;
  organization: SnapshotOrganization;
  /** Set for dashboard playground calls made on behalf of a signed-in user (and for MCP tokens issued to one). */
  userId: string | null;
  /** The MCP token presented instead of the key (the MCP endpoint only): it may narrow the caller to one server. */
  mcpToken?: SnapshotMcpToken | null;
}

/** Options of {@link authenticate}. */
export interface AuthenticateOptions {
  /** Accept `x-api-key: gak_...` too (the Anthropic-compatible routes). */
  allowApiKeyHeader?: boolean;
  /** Epoch ms used for expiry; defaults to now. */
  now?: number;
}

const gatewayKeyPattern = /^gak_[A-Za-z0-9_-]{8,256}$/;

/** Hex SHA-256 of a full `gak_` secret, as stored in `secretHash`. */
export function hashGatewayApiKey(secret: string): string {
  // One-shot `hash` (Node >= 20.12): about 0.7 us against 2.4 us for createHash().update().digest(), on every call.
  return hash("sha256", secret, "hex");
}

/** Extracts the `gak_` secret from `Authorization: Bearer` (or `x-api-key` when allowed). */
export function readGatewayApiKey(headers: RequestHeaders, options: AuthenticateOptions = {}): string {
  const authorization = readHeader(headers, "authorization");
  let secret: string | undefined;
  if (authorization !== undefined) {
    const match = /^Bearer[ \t]+(\S+)[ \t]*$/i.exec(authorization);
    if (!match) throw invalidKey("The Authorization header must be 'Bearer <gateway API key>'.");
    secret = match[1];
  } else if (options.allowApiKeyHeader) {
    secret = readHeader(headers, "x-api-key");
  }
  if (secret === undefined || secret === "") {
    throw invalidKey("Missing gateway API key: send 'Authorization: Bearer gak_...'.");
  }
  if (!gatewayKeyPattern.test(secret)) throw invalidKey("The gateway API key is malformed.");
  return secret;
}

/**
 * Authenticates a request against the in-memory snapshot (never the database).
 * Missing, malformed, unknown, expired or revoked keys: 401 `invalid_gateway_api_key`.
 */
export function authenticate(
  headers: RequestHeaders,
  snapshot: CompiledSnapshot,
  options: AuthenticateOptions = {},
): CallerIdentity {
  const secret = readGatewayApiKey(headers, options);
  return authenticateSecret(secret, snapshot, options.now);
}

/** Looks a `gak_` secret up in the snapshot; see {@link authenticate}. */
export function authenticateSecret(secret: string, snapshot: CompiledSnapshot, now = Date.now()): CallerIdentity {
  const apiKey = snapshot.apiKeysByHash.get(hashGatewayApiKey(secret));
  if (apiKey === undefined) throw invalidKey();
  return identityForKey(apiKey, snapshot, now);
}

/**
 * The identity of a key found by id (dashboard playground: the user picked one of the
 * organization's keys). Same rules as {@link authenticate}: expired or revoked keys are 401.
 */
export function identityForApiKeyId(
  apiKeyId: string,
  snapshot: CompiledSnapshot,
  options: { userId?: string | null; now?: number } = {},
): CallerIdentity {
  const apiKey = snapshot.apiKeysById.get(apiKeyId);
  if (apiKey === undefined) throw invalidKey();
  return { ...identityForKey(apiKey, snapshot, options.now ?? Date.now()), userId: options.userId ?? null };
}

function identityForKey(apiKey: SnapshotApiKey, snapshot: CompiledSnapshot, now: number): CallerIdentity {
  if (apiKey.expiresAt !== null && new Date(apiKey.expiresAt).getTime() <= now) throw invalidKey();
  const project = snapshot.projectsById.get(apiKey.projectId);
  const organization = snapshot.organizationsById.get(apiKey.organizationId);
  if (project === undefined || organization === undefined || project.organizationId !== organization.id) {
    throw invalidKey();
  }
  return { apiKey, project, organization, userId: null };
}

function invalidKey(message?: string): GatewayError {
  return new GatewayError("invalid_gateway_api_key", message === undefined ? {} : { message });
}

import { GatewayError } from "@gateway/errors";
import type { CompiledSnapshot } from "../runtime/compile-snapshot.js";
import { type CallerIdentity, authenticateSecret, hashGatewayApiKey, identityForApiKeyId } from "../stages/authenticate.js";
import { type RequestHeaders, readHeader } from "../stages/request-headers.js";

const gatewayKeyPattern = /^gak_[A-Za-z0-9_-]{8,256}$/;
const mcpTokenPattern = /^gmt_[A-Za-z0-9_-]{16,256}$/;

/** Prefix of the MCP tokens the gateway issues (`gmt_` + 43 base64url characters). */
export const mcpTokenPrefix = "gmt_";

/**
 * Authenticates a caller of the MCP endpoint against the in-memory snapshot: `Authorization:
 * Bearer` with a gateway API key (`gak_...`) or an MCP token (`gmt_...`), which acts as the API
 * key it was issued under (same project, policies, rate limits and budgets; its user on the
 * usage events) and may narrow the caller to one server. Missing, malformed, unknown, expired or
 * revoked credentials, and tokens whose key is revoked or expired: 401 `invalid_gateway_api_key`.
 */
export function authenticateMcpCaller(headers: RequestHeaders, snapshot: CompiledSnapshot, now = Date.now()): CallerIdentity {
  const authorization = readHeader(headers, "authorization");
  const match = authorization === undefined ? null : /^Bearer[ \t]+(\S+)[ \t]*$/i.exec(authorization);
  const secret = match?.[1];
  if (secret === undefined) throw unauthenticated("Send 'Authorization: Bearer' with a gateway API key (gak_...) or an MCP token (gmt_...).");
  if (gatewayKeyPattern.test(secret)) return authenticateSecret(secret, snapshot, now);
  if (!mcpTokenPattern.test(secret)) throw unauthenticated("The credential is neither a gateway API key nor an MCP token.");
  const token = snapshot.mcpTokensByHash.get(hashGatewayApiKey(secret));
  if (token === undefined || (token.expiresAt !== null && new Date(token.expiresAt).getTime() <= now)) throw unauthenticated();
  const identity = identityForApiKeyId(token.apiKeyId, snapshot, { userId: token.userId, now });
  if (identity.organization.id !== token.organizationId) throw unauthenticated();
  return { ...identity, mcpToken: token };
}

function unauthenticated(message = "Missing, invalid, expired or revoked gateway API key or MCP token."): GatewayError {
  return new GatewayError("invalid_gateway_api_key", { message });
}

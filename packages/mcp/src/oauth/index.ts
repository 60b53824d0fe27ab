// The OAuth 2.1 client side of MCP authorization, shared by the dashboard (discovery,
// registration, the code flow, revocation) and the gateway (refresh). No MCP SDK, no pipeline.
export { protectedResourceMetadataSchema, authorizationServerMetadataSchema, tokenResponseSchema } from "./oauth-schemas.js";
export type { OAuthTokenResponse } from "./oauth-schemas.js";
export { canonicalResourceUri } from "./canonical-resource-uri.js";
export { wellKnownUrl } from "./well-known-url.js";
export { discoverOAuthMetadata } from "./discover-oauth-metadata.js";
export type { DiscoveredOAuthMetadata, DiscoverOAuthMetadataOptions } from "./discover-oauth-metadata.js";
export { checkOAuthDiscoveryUrl, oauthDiscoveryOriginsVariable } from "./oauth-discovery-url-rule.js";
export type { OAuthDiscoveryUrlRule } from "./oauth-discovery-url-rule.js";
export { registerOAuthClient } from "./register-oauth-client.js";
export type { OAuthClient } from "./register-oauth-client.js";
export { createPkcePair } from "./create-pkce-pair.js";
export { buildAuthorizationUrl } from "./build-authorization-url.js";
export { requestOAuthToken } from "./request-oauth-token.js";
export type { OAuthTokenClient, OAuthTokenOutcome } from "./request-oauth-token.js";
export { exchangeAuthorizationCode } from "./exchange-authorization-code.js";
export { refreshOAuthToken } from "./refresh-oauth-token.js";
export { revokeOAuthToken } from "./revoke-oauth-token.js";

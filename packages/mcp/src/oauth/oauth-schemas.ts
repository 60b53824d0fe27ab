import { z } from "zod";

/** RFC 9728 protected-resource metadata (the fields the gateway uses; others pass through). */
export const protectedResourceMetadataSchema = z.looseObject({
  resource: z.string().optional(),
  authorization_servers: z.array(z.string()).optional(),
  scopes_supported: z.array(z.string()).optional(),
});

/** RFC 8414 authorization-server metadata (the fields the gateway uses; others pass through). */
export const authorizationServerMetadataSchema = z.looseObject({
  issuer: z.string(),
  authorization_endpoint: z.string(),
  token_endpoint: z.string(),
  registration_endpoint: z.string().optional(),
  revocation_endpoint: z.string().optional(),
  scopes_supported: z.array(z.string()).optional(),
  code_challenge_methods_supported: z.array(z.string()).optional(),
  token_endpoint_auth_methods_supported: z.array(z.string()).optional(),
  grant_types_supported: z.array(z.string()).optional(),
});

/** The OAuth token endpoint's answer (RFC 6749 section 5.1). */
export const tokenResponseSchema = z.looseObject({
  access_token: z.string().min(1),
  token_type: z.string(),
  expires_in: z.number().optional(),
  refresh_token: z.string().optional(),
  scope: z.string().optional(),
});

/** A token endpoint's successful answer. */
export type OAuthTokenResponse = z.infer<typeof tokenResponseSchema>;

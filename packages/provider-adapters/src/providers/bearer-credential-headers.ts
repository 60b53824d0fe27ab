/** `Authorization: Bearer <credential>` when the connection has a credential (OpenAI-compatible APIs, System One). */
export function bearerCredentialHeaders(credential: string | null): Record<string, string> {
  return credential ? { authorization: `Bearer ${credential}` } : {};
}

import { createHash, randomBytes, timingSafeEqual } from "node:crypto";

/** A new login session id (32 random bytes, base64url). Store only `hashToken(id)`. */
export function generateSessionId(): string {
  return randomBytes(32).toString("base64url");
}

/**
 * A new opaque token (32 random bytes, base64url) with an optional prefix, for invitations,
 * MCP tokens, OAuth `state` and PKCE verifiers. Store only `hashToken(token)` where it is a credential.
 */
export function generateToken(prefix = ""): string {
  return prefix + randomBytes(32).toString("base64url");
}

/** hex SHA-256 of a token or session id. */
export function hashToken(token: string): string {
  return createHash("sha256").update(token, "utf8").digest("hex");
}

/** Compares two strings in time independent of where they differ (and of their lengths). */
export function timingSafeEqualStrings(left: string, right: string): boolean {
  const leftDigest = createHash("sha256").update(String(left), "utf8").digest();
  const rightDigest = createHash("sha256").update(String(right), "utf8").digest();
  return timingSafeEqual(leftDigest, rightDigest) && left.length === right.length;
}

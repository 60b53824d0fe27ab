import { createHash, randomBytes } from "node:crypto";

/** Prefix of every gateway API key secret. */
export const API_KEY_PREFIX = "gak_";
/** Length of the base62 part: 32 random bytes encode to exactly 43 base62 digits. */
export const API_KEY_BODY_LENGTH = 43;
const BASE62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
const API_KEY_PATTERN = /^gak_[0-9A-Za-z]{43,}$/;

/** A freshly generated key: show `secret` once, store the rest. */
export interface GeneratedApiKey {
  /** `gak_` + 43 base62 characters (32 random bytes). Never stored. */
  secret: string;
  /** Display prefix: `gak_` + the first 8 characters after it. */
  prefix: string;
  lastFour: string;
  /** hex SHA-256 of `secret`. */
  hash: string;
}

/** Encodes bytes as a fixed-width base62 string (big-endian number). */
export function encodeBase62(bytes: Uint8Array, width: number): string {
  let value = BigInt(`0x${Buffer.from(bytes).toString("hex") || "0"}`);
  let output = "";
  while (value > 0n) {
    output = BASE62[Number(value % 62n)]! + output;
    value /= 62n;
  }
  return output.padStart(width, "0");
}

/** Generates a new gateway API key from 32 random bytes. */
export function generateApiKey(): GeneratedApiKey {
  const secret = API_KEY_PREFIX + encodeBase62(randomBytes(32), API_KEY_BODY_LENGTH);
  return describeApiKey(secret);
}

/** Prefix, last four and hash of an existing secret (e.g. one given in the config file). */
export function describeApiKey(secret: string): GeneratedApiKey {
  return {
    secret,
    prefix: secret.slice(0, API_KEY_PREFIX.length + 8),
    lastFour: secret.slice(-4),
    hash: hashApiKey(secret),
  };
}

/** hex SHA-256 of a full `gak_` secret (what `api_keys.secret_hash` stores). */
export function hashApiKey(secret: string): string {
  return createHash("sha256").update(secret, "utf8").digest("hex");
}

/** True when `value` has the shape of a gateway API key (`gak_` + >= 43 base62 characters). */
export function isApiKeyFormat(value: string): boolean {
  return typeof value === "string" && API_KEY_PATTERN.test(value);
}

import { randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from "node:crypto";

/** scrypt cost parameters stored with each hash. */
export interface PasswordHashParameters {
  /** CPU/memory cost, a power of two. */
  N: number;
  r: number;
  p: number;
}

/** Current parameters: N=2^15, r=8, p=1 (32 MiB, ~50-100 ms). Raise them and `needsRehash` says so. */
export const DEFAULT_PASSWORD_HASH_PARAMETERS: Readonly<PasswordHashParameters> = Object.freeze({ N: 2 ** 15, r: 8, p: 1 });

const KEY_LENGTH = 32;
const MAX_N = 2 ** 20;

function derive(password: string, salt: Buffer, parameters: PasswordHashParameters): Promise<Buffer> {
  const options: ScryptOptions = { ...parameters, maxmem: 256 * parameters.N * parameters.r + 1024 * 1024 };
  return new Promise((resolve, reject) => {
    scrypt(password.normalize("NFKC"), salt, KEY_LENGTH, options, (error, key) => (error ? reject(error) : resolve(key)));
  });
}

function parse(stored: string): { parameters: PasswordHashParameters; salt: Buffer; hash: Buffer } | null {
  const parts = typeof stored === "string" ? stored.split("$") : [];
  if (parts.length !== 6 || parts[0] !== "scrypt") return null;
  const [N, r, p] = [Number(parts[1]), Number(parts[2]), Number(parts[3])];
  if (![N, r, p].every((value) => Number.isSafeInteger(value) && value > 0)) return null;
  if (N > MAX_N || (N & (N - 1)) !== 0 || r > 32 || p > 16) return null;
  const salt = Buffer.from(parts[4]!, "base64url");
  const hash = Buffer.from(parts[5]!, "base64url");
  if (salt.length < 16 || hash.length !== KEY_LENGTH) return null;
  return { parameters: { N, r, p }, salt, hash };
}

/**
 * Hashes a password with scrypt. Format: `scrypt$N$r$p$<salt>$<hash>` (base64url), so the
 * parameters can be raised later without invalidating stored hashes.
 */
export async function hashPassword(password: string, parameters: PasswordHashParameters = DEFAULT_PASSWORD_HASH_PARAMETERS): Promise<string> {
  if (typeof password !== "string" || password.length === 0) throw new TypeError("password must be a non-empty string");
  const salt = randomBytes(16);
  const hash = await derive(password, salt, parameters);
  return ["scrypt", parameters.N, parameters.r, parameters.p, salt.toString("base64url"), hash.toString("base64url")].join("$");
}

/** Verifies a password in constant time. A malformed stored hash verifies as false. */
export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const parsed = parse(stored);
  if (!parsed || typeof password !== "string") return false;
  const candidate = await derive(password, parsed.salt, parsed.parameters);
  return timingSafeEqual(candidate, parsed.hash);
}

/** True when the stored hash uses weaker parameters than the current ones (or is malformed). */
export function needsRehash(stored: string, parameters: PasswordHashParameters = DEFAULT_PASSWORD_HASH_PARAMETERS): boolean {
  const parsed = parse(stored);
  if (!parsed) return true;
  return parsed.parameters.N < parameters.N || parsed.parameters.r < parameters.r || parsed.parameters.p < parameters.p;
}

/**
 * A fixed hash to verify against when the account does not exist, so unknown emails take
 * as long as wrong passwords.
 */
let dummyHash: Promise<string> | null = null;
export function dummyPasswordHash(): Promise<string> {
  dummyHash ??= hashPassword(randomBytes(16).toString("hex"));
  return dummyHash;
}

import { createHash, randomBytes } from "node:crypto";
import { chmodSync, mkdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import { createSecretBox, SecretBoxError, type SecretBox, type SecretKey } from "./secret-box.js";

/** Minimal logger used by the data layer. */
export interface DatabaseLogger {
  info(message: string): void;
  warn(message: string): void;
}

/** Options of `loadSecretBoxFromEnvironment`. */
export interface LoadSecretBoxOptions {
  /** Usually `process.env`; reads `GATEWAY_SECRET_KEY`. */
  env: Record<string, string | undefined>;
  /** Where the embedded default keeps `secret.key`. Default `./data`. */
  dataDirectory?: string;
  logger?: DatabaseLogger;
  /**
   * Without `GATEWAY_SECRET_KEY`: read `<dataDirectory>/secret.key`, generating it (mode 0600)
   * when missing. Default true (the embedded default). Pass false in production (PostgreSQL),
   * where a missing key must stop the start.
   */
  generateWhenMissing?: boolean;
}

/** Name of the generated key file inside the data directory. */
export const SECRET_KEY_FILE_NAME = "secret.key";

/**
 * Parses a key list: `KEY` or `KEY,KEY` or `id:KEY,id:KEY`; each KEY is 32 bytes as base64,
 * base64url or 64 hex digits. The first entry is the active key. Entries without an id get a
 * stable id derived from the key (`k` + 8 hex digits of a SHA-256 fingerprint), so listing the
 * old key after the new one is enough to rotate.
 */
export function parseSecretKeys(value: string): SecretKey[] {
  const entries = value.split(",").map((entry) => entry.trim()).filter((entry) => entry.length > 0);
  if (entries.length === 0) throw new SecretBoxError("GATEWAY_SECRET_KEY is empty");
  return entries.map((entry, index) => {
    const separator = entry.indexOf(":");
    const id = separator > 0 ? entry.slice(0, separator) : null;
    const encoded = separator > 0 ? entry.slice(separator + 1) : entry;
    const key = decodeKey(encoded);
    if (!key) {
      throw new SecretBoxError(
        `GATEWAY_SECRET_KEY entry ${index + 1} is not 32 bytes of base64 or 64 hex digits (generate one with: openssl rand -base64 32)`,
      );
    }
    return { id: id ?? deriveKeyId(key), key };
  });
}

function decodeKey(encoded: string): Buffer | null {
  if (/^[0-9a-fA-F]{64}$/.test(encoded)) return Buffer.from(encoded, "hex");
  if (/^[A-Za-z0-9+/_-]{43}={0,1}$/.test(encoded)) {
    const key = Buffer.from(encoded.replace(/-/g, "+").replace(/_/g, "/"), "base64");
    return key.length === 32 ? key : null;
  }
  return null;
}

/** Stable key id from key material (a fingerprint, not the key). */
export function deriveKeyId(key: Buffer): string {
  return `k${createHash("sha256").update("gateway-secret-key-id\0").update(key).digest("hex").slice(0, 8)}`;
}

/**
 * Builds the secret box from `GATEWAY_SECRET_KEY`, or (embedded default) from
 * `<dataDirectory>/secret.key`, generating that file with mode 0600 on first start and logging
 * that it did (never the key itself).
 */
export function loadSecretBoxFromEnvironment(options: LoadSecretBoxOptions): SecretBox {
  const configured = options.env.GATEWAY_SECRET_KEY;
  if (configured !== undefined && configured.trim() !== "") {
    const keys = parseSecretKeys(configured);
    return createSecretBox({ keys, activeKeyId: keys[0]!.id });
  }
  const file = path.resolve(options.dataDirectory ?? "./data", SECRET_KEY_FILE_NAME);
  let contents: string | null = null;
  try {
    contents = readFileSync(file, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
  }
  if (contents === null) {
    if (options.generateWhenMissing === false) {
      throw new SecretBoxError("GATEWAY_SECRET_KEY is not set (32 bytes, base64 or hex; e.g. `openssl rand -base64 32`)");
    }
    mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
    const generated = `${randomBytes(32).toString("base64")}\n`;
    try {
      writeFileSync(file, generated, { mode: 0o600, flag: "wx" });
      chmodSync(file, 0o600);
      options.logger?.info(
        `Generated a new secret key for encrypting stored credentials at ${file} (mode 0600). Back it up; without it stored credentials cannot be decrypted. Set GATEWAY_SECRET_KEY in production.`,
      );
      contents = generated;
    } catch (error) {
      // Another process created it first: use theirs.
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
      contents = readFileSync(file, "utf8");
    }
  } else if ((statSync(file).mode & 0o077) !== 0) {
    options.logger?.warn(`${file} is readable by other users; run: chmod 600 ${file}`);
  }
  if (contents.trim() === "") throw new SecretBoxError(`${file} is empty; delete it to generate a new key (stored credentials will need re-entering)`);
  const keys = parseSecretKeys(contents.trim());
  return createSecretBox({ keys, activeKeyId: keys[0]!.id });
}

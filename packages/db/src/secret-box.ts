import { createCipheriv, createDecipheriv, randomBytes } from "node:crypto";

/** One AES-256 key of a secret box. */
export interface SecretKey {
  /** 1 to 32 characters of [A-Za-z0-9_-]; written into every ciphertext. */
  id: string;
  /** Exactly 32 bytes. */
  key: Buffer;
}

/** Options of `createSecretBox`. */
export interface SecretBoxOptions {
  keys: SecretKey[];
  /** The key that encrypts; every key in `keys` can decrypt. */
  activeKeyId: string;
}

/**
 * Encrypts secrets at rest (provider credentials, OAuth tokens, telemetry configs).
 *
 * Ciphertext format (ASCII, safe in any text column):
 * `v1.<keyId>.<iv>.<tag>.<data>`, where iv (12 bytes), tag (16 bytes) and data are base64url
 * without padding. AES-256-GCM; the header `v1.<keyId>` is authenticated as additional data,
 * so a ciphertext cannot be relabelled to another key.
 */
export interface SecretBox {
  readonly activeKeyId: string;
  readonly keyIds: readonly string[];
  encrypt(plaintext: string): string;
  /** Throws `SecretBoxError` on an unknown key id, a wrong key or tampering. */
  decrypt(ciphertext: string): string;
  /** True when the ciphertext was made with a key other than the active one (re-encrypt it). */
  needsReencryption(ciphertext: string): boolean;
}

/** Decryption or key configuration failure. Messages never contain key material or plaintext. */
export class SecretBoxError extends Error {
  override readonly name = "SecretBoxError";
}

const VERSION = "v1";
const KEY_ID_PATTERN = /^[A-Za-z0-9_-]{1,32}$/;

/** Creates an AES-256-GCM secret box with key ids for rotation. */
export function createSecretBox(options: SecretBoxOptions): SecretBox {
  const keys = new Map<string, Buffer>();
  for (const { id, key } of options.keys) {
    if (!KEY_ID_PATTERN.test(id)) throw new SecretBoxError(`secret key id "${id}" must be 1-32 characters of [A-Za-z0-9_-]`);
    if (key.length !== 32) throw new SecretBoxError(`secret key "${id}" must be 32 bytes, got ${key.length}`);
    if (keys.has(id)) throw new SecretBoxError(`secret key id "${id}" is listed twice`);
    keys.set(id, Buffer.from(key));
  }
  const activeKey = keys.get(options.activeKeyId);
  if (!activeKey) throw new SecretBoxError(`active secret key id "${options.activeKeyId}" is not among the keys`);

  const parse = (ciphertext: string) => {
    const parts = typeof ciphertext === "string" ? ciphertext.split(".") : [];
    if (parts.length !== 5 || parts[0] !== VERSION) {
      throw new SecretBoxError("not a secret box ciphertext (expected v1.<keyId>.<iv>.<tag>.<data>)");
    }
    const [, keyId, iv, tag, data] = parts as [string, string, string, string, string];
    return { keyId, iv: Buffer.from(iv, "base64url"), tag: Buffer.from(tag, "base64url"), data: Buffer.from(data, "base64url") };
  };

  return {
    activeKeyId: options.activeKeyId,
    keyIds: [...keys.keys()],
    encrypt(plaintext) {
      if (typeof plaintext !== "string") throw new SecretBoxError("only strings can be encrypted");
      const iv = randomBytes(12);
      const cipher = createCipheriv("aes-256-gcm", activeKey, iv);
      cipher.setAAD(Buffer.from(`${VERSION}.${options.activeKeyId}`));
      const data = Buffer.concat([cipher.update(plaintext, "utf8"), cipher.final()]);
      const tag = cipher.getAuthTag();
      return [VERSION, options.activeKeyId, iv.toString("base64url"), tag.toString("base64url"), data.toString("base64url")].join(".");
    },
    decrypt(ciphertext) {
      const { keyId, iv, tag, data } = parse(ciphertext);
      const key = keys.get(keyId);
      if (!key) {
        throw new SecretBoxError(
          `cannot decrypt: secret key "${keyId}" is not configured (configured: ${[...keys.keys()].join(", ")}); add it to GATEWAY_SECRET_KEY`,
        );
      }
      if (iv.length !== 12 || tag.length !== 16) throw new SecretBoxError("cannot decrypt: malformed ciphertext");
      try {
        const decipher = createDecipheriv("aes-256-gcm", key, iv);
        decipher.setAAD(Buffer.from(`${VERSION}.${keyId}`));
        decipher.setAuthTag(tag);
        return Buffer.concat([decipher.update(data), decipher.final()]).toString("utf8");
      } catch {
        throw new SecretBoxError(
          `cannot decrypt: authentication failed for key "${keyId}" (wrong key material for this id, or the ciphertext was altered)`,
        );
      }
    },
    needsReencryption(ciphertext) {
      return parse(ciphertext).keyId !== options.activeKeyId;
    },
  };
}

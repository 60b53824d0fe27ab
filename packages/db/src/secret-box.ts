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
 * The row a ciphertext belongs to, authenticated as additional data: a ciphertext copied to
 * another row, column or organization fails to decrypt.
 */
export interface SecretBinding {
  organizationId: string;
  /** `<table>.<column>`, e.g. `connections.credential_ciphertext`. */
  column: string;
  /** The row's id. */
  rowId: string;
}

/**
 * Encrypts secrets at rest (provider credentials, OAuth tokens, telemetry configs).
 *
 * Ciphertext format (ASCII, safe in any text column): `<version>.<keyId>.<iv>.<tag>.<data>`,
 * where iv (12 bytes), tag (16 bytes) and data are base64url without padding; AES-256-GCM.
 * - `v2` (written with a {@link SecretBinding}): the additional data is the header `v2.<keyId>`
 *   and the binding (organization, table and column, row id), so a ciphertext is only valid in
 *   the row it was written for.
 * - `v1` (older rows, or written without a binding): the additional data is the header `v1.<keyId>`
 *   only (a ciphertext cannot be relabelled to another key). Still decrypted; re-encrypt to v2.
 */
export interface SecretBox {
  readonly activeKeyId: string;
  readonly keyIds: readonly string[];
  /** Encrypts; `v2` bound to `binding` when given, else `v1`. */
  encrypt(plaintext: string, binding?: SecretBinding): string;
  /**
   * Throws `SecretBoxError` on an unknown key id, a wrong key, tampering, or a `v2` ciphertext
   * read without its binding or in another row. A `v1` ciphertext decrypts with or without a binding.
   */
  decrypt(ciphertext: string, binding?: SecretBinding): string;
  /** True when the ciphertext is `v1` or was made with a key other than the active one (re-encrypt it with its binding). */
  needsReencryption(ciphertext: string): boolean;
}

/** Decryption or key configuration failure. Messages never contain key material or plaintext. */
export class SecretBoxError extends Error {
  override readonly name = "SecretBoxError";
}

const LEGACY_VERSION = "v1";
const BOUND_VERSION = "v2";
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
    if (parts.length !== 5 || (parts[0] !== LEGACY_VERSION && parts[0] !== BOUND_VERSION)) {
      throw new SecretBoxError("not a secret box ciphertext (expected v1|v2.<keyId>.<iv>.<tag>.<data>)");
    }
    const [version, keyId, iv, tag, data] = parts as [string, string, string, string, string];
    return { version, keyId, iv: Buffer.from(iv, "base64url"), tag: Buffer.from(tag, "base64url"), data: Buffer.from(data, "base64url") };
  };

  const additionalData = (version: string, keyId: string, binding: SecretBinding | undefined) =>
    Buffer.from(version === BOUND_VERSION ? `${version}.${keyId}\n${JSON.stringify([binding!.organizationId, binding!.column, binding!.rowId])}` : `${version}.${keyId}`);

  return {
    activeKeyId: options.activeKeyId,
    keyIds: [...keys.keys()],
    encrypt(plaintext, binding) {
      if (typeof plaintext !== "string") throw new SecretBoxError("only strings can be encrypted");
      const version = binding === undefined ? LEGACY_VERSION : BOUND_VERSION;
      const iv = randomBytes(12);
      const cipher = createCipheriv("aes-256-gcm", activeKey, iv);
      cipher.setAAD(additionalData(version, options.activeKeyId, binding));
      const data = Buffer.concat([cipher.update(plaintext, "utf8"), cipher.final()]);
      const tag = cipher.getAuthTag();
      return [version, options.activeKeyId, iv.toString("base64url"), tag.toString("base64url"), data.toString("base64url")].join(".");
    },
    decrypt(ciphertext, binding) {
      const { version, keyId, iv, tag, data } = parse(ciphertext);
      const key = keys.get(keyId);
      if (!key) {
        throw new SecretBoxError(
          `cannot decrypt: secret key "${keyId}" is not configured (configured: ${[...keys.keys()].join(", ")}); add it to GATEWAY_SECRET_KEY`,
        );
      }
      if (iv.length !== 12 || tag.length !== 16) throw new SecretBoxError("cannot decrypt: malformed ciphertext");
      if (version === BOUND_VERSION && binding === undefined) {
        throw new SecretBoxError("cannot decrypt: the ciphertext is bound to its row, and no row was given");
      }
      try {
        const decipher = createDecipheriv("aes-256-gcm", key, iv);
        decipher.setAAD(additionalData(version, keyId, binding));
        decipher.setAuthTag(tag);
        return Buffer.concat([decipher.update(data), decipher.final()]).toString("utf8");
      } catch {
        throw new SecretBoxError(
          version === BOUND_VERSION
            ? `cannot decrypt ${binding!.column} of row "${binding!.rowId}": it was not written for this row and organization (copied from another row?), or the key material for "${keyId}" is wrong, or the ciphertext was altered`
            : `cannot decrypt: authentication failed for key "${keyId}" (wrong key material for this id, or the ciphertext was altered)`,
        );
      }
    },
    needsReencryption(ciphertext) {
      const { version, keyId } = parse(ciphertext);
      return version !== BOUND_VERSION || keyId !== options.activeKeyId;
    },
  };
}

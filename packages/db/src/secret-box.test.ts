import { randomBytes } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { createSecretBox, SecretBoxError } from "./secret-box.js";
import { deriveKeyId, loadSecretBoxFromEnvironment, parseSecretKeys } from "./load-secret-box-from-environment.js";

const key = () => randomBytes(32);

describe("createSecretBox", () => {
  it("round-trips secrets and writes the key id into the ciphertext", () => {
    const box = createSecretBox({ keys: [{ id: "main", key: key() }], activeKeyId: "main" });
    const ciphertext = box.encrypt("sk-live-ünïcode");
    expect(ciphertext).toMatch(/^v1\.main\.[A-Za-z0-9_-]{16}\.[A-Za-z0-9_-]{22}\.[A-Za-z0-9_-]+$/);
    expect(ciphertext).not.toContain("sk-live");
    expect(box.decrypt(ciphertext)).toBe("sk-live-ünïcode");
    expect(box.encrypt("same")).not.toBe(box.encrypt("same"));
  });

  it("decrypts with an old key after rotation and says which ciphertexts to re-encrypt", () => {
    const oldKey = key();
    const before = createSecretBox({ keys: [{ id: "old", key: oldKey }], activeKeyId: "old" });
    const stored = before.encrypt("credential");
    const after = createSecretBox({ keys: [{ id: "new", key: key() }, { id: "old", key: oldKey }], activeKeyId: "new" });
    expect(after.decrypt(stored)).toBe("credential");
    expect(after.needsReencryption(stored)).toBe(true);
    const fresh = after.encrypt("credential");
    expect(fresh.startsWith("v1.new.")).toBe(true);
    // Unbound (v1) ciphertexts are re-encrypted with their row's binding.
    expect(after.needsReencryption(fresh)).toBe(true);
    const bound = after.encrypt("credential", { organizationId: "org_1", column: "connections.credential_ciphertext", rowId: "con_1" });
    expect(bound.startsWith("v2.new.")).toBe(true);
    expect(after.needsReencryption(bound)).toBe(false);
  });

  it("binds v2 ciphertexts to their organization, column and row; v1 still decrypts", () => {
    const box = createSecretBox({ keys: [{ id: "main", key: key() }], activeKeyId: "main" });
    const row = { organizationId: "org_1", column: "connections.credential_ciphertext", rowId: "con_1" };
    const ciphertext = box.encrypt("sk-row-secret", row);
    expect(box.decrypt(ciphertext, row)).toBe("sk-row-secret");
    for (const elsewhere of [{ ...row, rowId: "con_2" }, { ...row, organizationId: "org_2" }, { ...row, column: "telemetry_destinations.config_ciphertext" }]) {
      expect(() => box.decrypt(ciphertext, elsewhere)).toThrow(SecretBoxError);
      expect(() => box.decrypt(ciphertext, elsewhere)).toThrow(/not written for this row and organization/);
      expect(() => box.decrypt(ciphertext, elsewhere)).not.toThrow(/sk-row-secret/);
    }
    expect(() => box.decrypt(ciphertext)).toThrow(/bound to its row, and no row was given/);
    const legacy = box.encrypt("sk-legacy");
    expect(legacy.startsWith("v1.main.")).toBe(true);
    expect(box.decrypt(legacy, row)).toBe("sk-legacy");
    expect(box.decrypt(legacy)).toBe("sk-legacy");
  });

  it("fails loudly with the wrong key, an unknown key id or tampering, without printing the secret", () => {
    const box = createSecretBox({ keys: [{ id: "main", key: key() }], activeKeyId: "main" });
    const ciphertext = box.encrypt("top-secret-value");
    const wrongKey = createSecretBox({ keys: [{ id: "main", key: key() }], activeKeyId: "main" });
    expect(() => wrongKey.decrypt(ciphertext)).toThrow(SecretBoxError);
    expect(() => wrongKey.decrypt(ciphertext)).toThrow(/authentication failed for key "main"/);
    const otherId = createSecretBox({ keys: [{ id: "other", key: key() }], activeKeyId: "other" });
    expect(() => otherId.decrypt(ciphertext)).toThrow(/secret key "main" is not configured/);
    const parts = ciphertext.split(".");
    const data = Buffer.from(parts[4]!, "base64url");
    data[0] = data[0]! ^ 1;
    parts[4] = data.toString("base64url");
    expect(() => box.decrypt(parts.join("."))).toThrow(/authentication failed/);
    // Relabelling a ciphertext to another key id is detected (the header is authenticated).
    const twoKeys = createSecretBox({ keys: [{ id: "a", key: key() }, { id: "b", key: key() }], activeKeyId: "a" });
    const relabelled = twoKeys.encrypt("x").replace(/^v1\.a\./, "v1.b.");
    expect(() => twoKeys.decrypt(relabelled)).toThrow(SecretBoxError);
    expect(() => box.decrypt("not a ciphertext")).toThrow(/not a secret box ciphertext/);
    try {
      wrongKey.decrypt(ciphertext);
    } catch (error) {
      expect(String(error)).not.toContain("top-secret-value");
    }
  });

  it("rejects bad key configuration", () => {
    expect(() => createSecretBox({ keys: [{ id: "short", key: randomBytes(16) }], activeKeyId: "short" })).toThrow(/32 bytes/);
    expect(() => createSecretBox({ keys: [{ id: "a.b", key: key() }], activeKeyId: "a.b" })).toThrow(/key id/);
    expect(() => createSecretBox({ keys: [{ id: "a", key: key() }], activeKeyId: "b" })).toThrow(/active secret key id/);
  });
});

describe("loadSecretBoxFromEnvironment", () => {
  it("reads GATEWAY_SECRET_KEY as base64, hex, and id:key lists for rotation", () => {
    const oldKey = key();
    const newKey = key();
    const old = loadSecretBoxFromEnvironment({ env: { GATEWAY_SECRET_KEY: oldKey.toString("base64") } });
    expect(old.activeKeyId).toBe(deriveKeyId(oldKey));
    const stored = old.encrypt("credential");
    const rotated = loadSecretBoxFromEnvironment({ env: { GATEWAY_SECRET_KEY: `${newKey.toString("hex")},${oldKey.toString("base64url")}` } });
    expect(rotated.activeKeyId).toBe(deriveKeyId(newKey));
    expect(rotated.decrypt(stored)).toBe("credential");
    const named = parseSecretKeys(`v2:${newKey.toString("base64")}, v1:${oldKey.toString("hex")}`);
    expect(named.map((entry) => entry.id)).toEqual(["v2", "v1"]);
    expect(() => parseSecretKeys("too-short")).toThrow(/not 32 bytes/);
  });

  it("generates ./data/secret.key with mode 0600 on first start, logs it, and reuses it", () => {
    const directory = mkdtempSync(path.join(tmpdir(), "gateway-secret-"));
    const messages: string[] = [];
    const logger = { info: (message: string) => messages.push(message), warn: (message: string) => messages.push(message) };
    try {
      const dataDirectory = path.join(directory, "data");
      const first = loadSecretBoxFromEnvironment({ env: {}, dataDirectory, logger });
      const file = path.join(dataDirectory, "secret.key");
      expect(statSync(file).mode & 0o777).toBe(0o600);
      expect(messages.join("\n")).toMatch(/Generated a new secret key/);
      expect(messages.join("\n")).not.toContain(readFileSync(file, "utf8").trim());
      const second = loadSecretBoxFromEnvironment({ env: {}, dataDirectory, logger });
      expect(second.decrypt(first.encrypt("x"))).toBe("x");
      expect(messages.filter((message) => message.includes("Generated"))).toHaveLength(1);
      expect(() => loadSecretBoxFromEnvironment({ env: {}, dataDirectory: path.join(directory, "other"), generateWhenMissing: false })).toThrow(/GATEWAY_SECRET_KEY is not set/);
    } finally {
      rmSync(directory, { recursive: true, force: true });
    }
  });
});

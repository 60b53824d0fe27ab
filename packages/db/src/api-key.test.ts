import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { describeApiKey, encodeBase62, generateApiKey, hashApiKey, isApiKeyFormat } from "./api-key.js";
import { generateSessionId, hashToken, timingSafeEqualStrings } from "./tokens.js";

describe("gateway API keys", () => {
  it("are gak_ followed by at least 43 base62 characters, with display prefix, last four and SHA-256 hash", () => {
    const keys = Array.from({ length: 200 }, () => generateApiKey());
    for (const key of keys) {
      expect(key.secret).toMatch(/^gak_[0-9A-Za-z]{43,}$/);
      expect(key.secret.length - "gak_".length).toBeGreaterThanOrEqual(43);
      expect(key.prefix).toBe(key.secret.slice(0, 12));
      expect(key.lastFour).toBe(key.secret.slice(-4));
      expect(key.hash).toBe(createHash("sha256").update(key.secret).digest("hex"));
      expect(isApiKeyFormat(key.secret)).toBe(true);
    }
    expect(new Set(keys.map((key) => key.secret)).size).toBe(200);
  });

  it("encodes 32 bytes into exactly 43 base62 digits", () => {
    expect(encodeBase62(new Uint8Array(32).fill(255), 43)).toHaveLength(43);
    expect(encodeBase62(new Uint8Array(32), 43)).toBe("0".repeat(43));
    expect(encodeBase62(Uint8Array.from([61]), 1)).toBe("z");
  });

  it("hashes given secrets the same way and rejects malformed ones", () => {
    const given = `gak_${"a".repeat(43)}`;
    expect(describeApiKey(given).hash).toBe(hashApiKey(given));
    expect(isApiKeyFormat("gak_short")).toBe(false);
    expect(isApiKeyFormat(`sk_${"a".repeat(43)}`)).toBe(false);
    expect(isApiKeyFormat(`gak_${"a".repeat(42)}-`)).toBe(false);
  });
});

describe("session ids and tokens", () => {
  it("are random, hashed with SHA-256 and compared in constant time", () => {
    const first = generateSessionId();
    expect(first).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(generateSessionId()).not.toBe(first);
    expect(hashToken(first)).toBe(createHash("sha256").update(first).digest("hex"));
    expect(timingSafeEqualStrings(first, first)).toBe(true);
    expect(timingSafeEqualStrings(first, `${first}x`)).toBe(false);
    expect(timingSafeEqualStrings("", "")).toBe(true);
    expect(timingSafeEqualStrings("a", "b")).toBe(false);
  });
});

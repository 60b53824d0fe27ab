import { describe, expect, it } from "vitest";
import { hashPassword, needsRehash, verifyPassword } from "./password-hash.js";

describe("password hashing", () => {
  it("verifies the right password and refuses a wrong one", async () => {
    const stored = await hashPassword("correct horse battery staple");
    expect(stored).toMatch(/^scrypt\$32768\$8\$1\$[A-Za-z0-9_-]{22}\$[A-Za-z0-9_-]{43}$/);
    expect(await verifyPassword("correct horse battery staple", stored)).toBe(true);
    expect(await verifyPassword("correct horse battery stapler", stored)).toBe(false);
    expect(await verifyPassword("", stored)).toBe(false);
  });

  it("salts every hash", async () => {
    expect(await hashPassword("same")).not.toBe(await hashPassword("same"));
  });

  it("keeps the parameters with the hash so they can be raised later", async () => {
    const weak = await hashPassword("pw", { N: 2 ** 10, r: 8, p: 1 });
    expect(weak.startsWith("scrypt$1024$8$1$")).toBe(true);
    expect(await verifyPassword("pw", weak)).toBe(true);
    expect(needsRehash(weak)).toBe(true);
    expect(needsRehash(await hashPassword("pw"))).toBe(false);
  });

  it("treats malformed or absurd stored hashes as non-matching", async () => {
    expect(await verifyPassword("pw", "plain-text")).toBe(false);
    expect(await verifyPassword("pw", "scrypt$4294967296$8$1$AAAAAAAAAAAAAAAAAAAAAA$AAAA")).toBe(false);
    expect(needsRehash("garbage")).toBe(true);
  });
});

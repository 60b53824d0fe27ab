import { describe, expect, it } from "vitest";
import { redactKnownSecrets, redactKnownSecretsInValue, redactSecrets, redactSecretsInValue } from "./redact-secrets.js";

const credential = "sk-proj-4fGh8Kq2Zx7Lm9Np3Rt5Vw1Yb6Cd0Ef";

describe("redactSecrets", () => {
  it("removes the whole credential and echoes of it without its prefix, cut short or masked in the middle", () => {
    const withoutPrefix = credential.slice("sk-proj-".length);
    expect(redactSecrets(`Incorrect API key provided: ${withoutPrefix}.`, [credential])).toBe("Incorrect API key provided: [redacted].");
    expect(redactSecrets(`key ${credential.slice(12, 26)} is invalid`, [credential])).toBe("key [redacted] is invalid");
    const masked = `${credential.slice(8, 20)}****${credential.slice(-11)}`;
    expect(redactSecrets(`got ${masked}`, [credential])).toBe("got [redacted]****[redacted]");
    expect(redactSecrets(`"${credential}"`, [credential])).not.toContain(credential.slice(10, 20));
  });

  it("leaves ordinary text and short coincidences alone", () => {
    expect(redactSecrets("The model 'gpt-4o' does not exist.", [credential])).toBe("The model 'gpt-4o' does not exist.");
    expect(redactSecrets("max_tokens is too large: 9007199254740993", [credential])).toBe("max_tokens is too large: 9007199254740993");
    expect(redactSecrets(`part ${credential.slice(10, 19)} only`, [credential])).toBe(`part ${credential.slice(10, 19)} only`);
  });

  it("removes common key shapes and bearer tokens even when the secret is not known", () => {
    const shapes = [
      "sk-ant-api03-AbCdEfGhIjKlMnOp",
      "sk-proj-AbCdEfGhIjKl",
      "gsk_AbCdEfGhIjKlMnOp",
      "AIzaSyAbCdEfGhIjKlMnOpQrStUvWxYz012345",
      "xai-AbCdEfGhIjKlMnOp",
      "gak_AbCdEfGhIjKlMnOpQrStUvWxYz0123456789abcdefg",
      "gmt_AbCdEfGhIjKlMnOpQrSt",
    ];
    for (const shape of shapes) expect(redactSecrets(`bad key ${shape}, retry`)).toBe("bad key [redacted], retry");
    expect(redactSecrets("sent Authorization: Bearer eyJhbGciOi.J9xYz")).toBe("sent Authorization: Bearer [redacted]");
  });

  it("finds echoes at the start, between non-ASCII text and one character apart", () => {
    expect(redactKnownSecrets(`${credential.slice(0, 12)} 🙂 é`, [credential])).toBe("[redacted] 🙂 é");
    expect(redactKnownSecrets(`🙂${credential.slice(8, 19)}🙂${credential.slice(20, 31)}`, [credential])).toBe("🙂[redacted]🙂[redacted]");
    expect(redactKnownSecrets(`a ${credential.slice(8, 17)} b`, [credential])).toBe(`a ${credential.slice(8, 17)} b`);
  });

  it("is linear enough for long texts", () => {
    const text = "a".repeat(200_000) + credential.slice(9, 30);
    expect(redactSecrets(text, [credential]).endsWith("[redacted]")).toBe(true);
  });
});

describe("redactSecretsInValue", () => {
  it("redacts every string of a JSON value, keys included, without changing the input", () => {
    const body = { error: { message: `bad ${credential.slice(8)}`, details: [`x ${credential}`], [credential.slice(8)]: 1 }, code: 401 };
    const redacted = redactSecretsInValue(body, [credential]);
    expect(JSON.stringify(redacted)).not.toContain(credential.slice(8, 18));
    expect(redacted).toEqual({ error: { message: "bad [redacted]", details: ["x [redacted]"], "[redacted]": 1 }, code: 401 });
    expect(body.error.message).toBe(`bad ${credential.slice(8)}`);
  });
});

describe("redactKnownSecretsInValue", () => {
  it("removes the given secret and its echoes from every string, and leaves other key-like text alone", () => {
    const result = { content: [{ type: "text", text: `you sent Bearer ${credential}; tail ${credential.slice(9)}; a doc shows sk-test-AbCdEfGhIjKl` }], structuredContent: { token: credential } };
    expect(redactKnownSecretsInValue(result, [credential])).toEqual({
      content: [{ type: "text", text: "you sent Bearer [redacted]; tail [redacted]; a doc shows sk-test-AbCdEfGhIjKl" }],
      structuredContent: { token: "[redacted]" },
    });
    expect(result.structuredContent.token).toBe(credential);
  });

  it("returns the value itself when there is no secret to look for", () => {
    const value = { text: "sk-test-AbCdEfGhIjKl" };
    expect(redactKnownSecretsInValue(value, [null, undefined])).toBe(value);
  });
});

import { describe, expect, it } from "vitest";
import { detectClientLabel, isValidClientLabel, resolveClientLabel } from "./client-label.js";

describe("X-Gateway-Client grammar", () => {
  it.each(["my-app", "my app/1.2.3", "A", "batch_runner.v2/0", `${"a".repeat(64)}/${"1".repeat(32)}`, "tool/1.0.0+build-7"])(
    "accepts %j",
    (value) => expect(isValidClientLabel(value)).toBe(true),
  );
  it.each([
    "",
    "-starts-with-hyphen",
    " leading-space",
    "a".repeat(65),
    `app/${"1".repeat(33)}`,
    "app/v1",
    "app/",
    "app/1/2",
    "app@1.0",
    "appé/1",
    "app/1 2",
  ])("rejects %j", (value) => expect(isValidClientLabel(value)).toBe(false));
});

describe("client label resolution", () => {
  it("takes a valid X-Gateway-Client over the User-Agent", () => {
    expect(resolveClientLabel("nightly-eval/2.1", "OpenAI/JS 6.1.0")).toBe("nightly-eval/2.1");
  });
  it("ignores an invalid X-Gateway-Client and falls back to User-Agent detection", () => {
    expect(resolveClientLabel("bad label!", "OpenAI/JS 6.1.0")).toBe("openai-node/6.1.0");
  });
  it("names the official SDKs by package", () => {
    expect(detectClientLabel("OpenAI/JS 6.49.0")).toBe("openai-node/6.49.0");
    expect(detectClientLabel("OpenAI/Python 1.40.0")).toBe("openai-python/1.40.0");
    expect(detectClientLabel("Anthropic/JS 0.60.0")).toBe("anthropic-node/0.60.0");
  });
  it("uses the first product token of other agents, and nothing for browsers", () => {
    expect(detectClientLabel("curl/8.5.0")).toBe("curl/8.5.0");
    expect(detectClientLabel("python-requests/2.31.0 extra")).toBe("python-requests/2.31.0");
    expect(detectClientLabel("Mozilla/5.0 (X11; Linux x86_64)")).toBeNull();
    expect(detectClientLabel(undefined)).toBeNull();
  });
});

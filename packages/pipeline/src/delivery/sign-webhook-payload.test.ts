import { createHmac } from "node:crypto";
import { describe, expect, it } from "vitest";
import { signWebhookPayload, verifyWebhookSignature } from "./sign-webhook-payload.js";

describe("webhook signatures", () => {
  it("is HMAC-SHA256 over '<timestamp>.<body>'", () => {
    const header = signWebhookPayload({ secret: "s3cret", body: '{"a":1}', timestamp: 1700000000 });
    const expected = createHmac("sha256", "s3cret").update('1700000000.{"a":1}').digest("hex");
    expect(header).toBe(`t=1700000000,v1=${expected}`);
  });
  it("verifies, and rejects tampering, other secrets and stale timestamps", () => {
    const header = signWebhookPayload({ secret: "s3cret", body: "x", timestamp: 1700000000 });
    expect(verifyWebhookSignature({ secret: "s3cret", body: "x", header, now: 1700000100 })).toBe(true);
    expect(verifyWebhookSignature({ secret: "s3cret", body: "y", header, now: 1700000100 })).toBe(false);
    expect(verifyWebhookSignature({ secret: "other", body: "x", header, now: 1700000100 })).toBe(false);
    expect(verifyWebhookSignature({ secret: "s3cret", body: "x", header, now: 1700009999 })).toBe(false);
  });
});

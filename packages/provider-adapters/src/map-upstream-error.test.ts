import { errorResponseHeaders } from "@gateway/errors";
import { describe, expect, it } from "vitest";
import { mapUpstreamError } from "./map-upstream-error.js";

describe("mapUpstreamError", () => {
  it("keeps Retry-After exactly as the provider gave it, and the 429 header renders it unchanged", () => {
    for (const value of ["7", "Wed, 21 Oct 2026 07:28:00 GMT"]) {
      const error = mapUpstreamError({ status: 429, headers: { "retry-after": value }, body: {}, provider: "p" });
      expect(error.retryAfter).toBe(value);
      expect(errorResponseHeaders(error)).toEqual({ "retry-after": value });
    }
    expect(mapUpstreamError({ status: 429, headers: {}, body: {}, provider: "p" }).retryAfter).toBeUndefined();
  });

  it("redacts the credential and key-like strings from provider messages", () => {
    const error = mapUpstreamError({
      status: 400,
      headers: {},
      body: { error: { message: "Bad key secret-credential-xyz and sk-proj-abcdef123456 with Bearer abc.def" } },
      provider: "p",
      secrets: ["secret-credential-xyz"],
    });
    expect(error.message).toBe("Bad key [redacted] and [redacted] with Bearer [redacted]");
  });

  it("uses the FastAPI `detail` of OpenAI-compatible servers, and a default when there is no message", () => {
    expect(mapUpstreamError({ status: 422, headers: {}, body: { detail: "field required" }, provider: "p" })).toMatchObject({
      code: "invalid_request",
      message: "field required",
    });
    expect(mapUpstreamError({ status: 409, headers: {}, body: undefined, provider: "p" }).message).toContain("status 409");
  });
});

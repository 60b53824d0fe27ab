import type { GatewayError } from "@gateway/errors";
import { describe, expect, it } from "vitest";
import { authenticate } from "./authenticate.js";
import { compileSnapshot } from "../runtime/compile-snapshot.js";
import { createTestSnapshot, testApiKey } from "../__fixtures__/create-test-snapshot.js";

function failure(run: () => unknown): GatewayError {
  try {
    run();
  } catch (error) {
    return error as GatewayError;
  }
  throw new Error("expected a failure");
}

describe("authenticate", () => {
  const snapshot = compileSnapshot(createTestSnapshot());

  it("finds the key, its project and organization by the hash of the Bearer secret", () => {
    const identity = authenticate({ authorization: `Bearer ${testApiKey}` }, snapshot);
    expect(identity.apiKey.id).toBe("key_1");
    expect(identity.project.id).toBe("prj_1");
    expect(identity.organization.slug).toBe("acme");
  });

  it.each([
    ["missing", {}],
    ["not Bearer", { authorization: `Basic ${testApiKey}` }],
    ["malformed", { authorization: "Bearer sk-abc" }],
    ["unknown", { authorization: "Bearer gak_unknown_0123456789abcdef" }],
    ["x-api-key without the flag", { "x-api-key": testApiKey }],
  ])("answers 401 invalid_gateway_api_key for a %s key", (_name, headers) => {
    const error = failure(() => authenticate(headers, snapshot));
    expect(error.status).toBe(401);
    expect(error.code).toBe("invalid_gateway_api_key");
    expect(error.message).not.toContain(testApiKey);
  });

  it("accepts x-api-key when the route allows it (Anthropic-compatible routes)", () => {
    expect(authenticate({ "x-api-key": testApiKey }, snapshot, { allowApiKeyHeader: true }).apiKey.id).toBe("key_1");
  });

  it("refuses an expired key", () => {
    const base = createTestSnapshot();
    const expired = compileSnapshot({
      ...base,
      apiKeys: base.apiKeys.map((key) => ({ ...key, expiresAt: new Date(1000) })),
    });
    const error = failure(() => authenticate({ authorization: `Bearer ${testApiKey}` }, expired, { now: 2000 }));
    expect(error.code).toBe("invalid_gateway_api_key");
  });

  it("refuses a revoked key (absent from the snapshot)", () => {
    const revoked = compileSnapshot(createTestSnapshot({ apiKeys: [] }));
    expect(failure(() => authenticate({ authorization: `Bearer ${testApiKey}` }, revoked)).status).toBe(401);
  });
});

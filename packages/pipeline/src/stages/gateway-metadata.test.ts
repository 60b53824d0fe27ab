import { GatewayError } from "@gateway/errors";
import { describe, expect, it } from "vitest";
import { createRequestContext } from "./request-context.js";
import { mergeGatewayMetadata, noMetadata, parseGatewayMetadata } from "./gateway-metadata.js";

function rejection(value: string): GatewayError {
  try {
    parseGatewayMetadata(value);
  } catch (error) {
    if (GatewayError.isInstance(error)) return error;
    throw error;
  }
  throw new Error(`accepted ${value}`);
}

describe("X-Gateway-Metadata", () => {
  it("reads a JSON object of string values into the request context, with the client version", () => {
    const context = createRequestContext({
      requestId: "req_1",
      endpoint: "chat_completions",
      timeoutMs: 1000,
      headers: { "x-gateway-metadata": '{"customer":"acme","env":"prod"}', "x-gateway-client": "billing-bot/2.3.1" },
    });
    expect(context.metadata).toEqual({ customer: "acme", env: "prod" });
    expect(context.clientLabel).toBe("billing-bot/2.3.1");
    expect(context.clientVersion).toBe("2.3.1");
    expect(createRequestContext({ requestId: "req_2", endpoint: "chat_completions", timeoutMs: 1000, headers: {} }).metadata).toBe(noMetadata);
  });

  it.each([
    ["not JSON", "{customer:acme}"],
    ["an array", '["a"]'],
    ["a number value", '{"tier":3}'],
    ["a nested object", '{"a":{"b":"c"}}'],
    ["a key with a space", '{"bad key":"v"}'],
    ["a 65-character key", `{"${"k".repeat(65)}":"v"}`],
    ["__proto__", '{"__proto__":"x"}'],
    ["a 257-character value", `{"k":"${"v".repeat(257)}"}`],
    ["17 keys", JSON.stringify(Object.fromEntries(Array.from({ length: 17 }, (_, index) => [`k${index}`, "v"])))],
    ["over 4096 bytes", JSON.stringify(Object.fromEntries(Array.from({ length: 16 }, (_, index) => [`k${index}`, "v".repeat(256)])))],
  ])("refuses %s with 400 invalid_request naming the header", (_name, value) => {
    const error = rejection(value);
    expect(error.status).toBe(400);
    expect(error.code).toBe("invalid_request");
    expect(error.param).toBe("X-Gateway-Metadata");
    expect(error.message).toMatch(/^X-Gateway-Metadata /);
  });

  it("accepts the bounds exactly: 16 keys, 64-character keys, 256-character values", () => {
    const sixteen = Object.fromEntries(Array.from({ length: 16 }, (_, index) => [`key-${String(index).padStart(2, "0")}`, "v".repeat(200)]));
    expect(JSON.stringify(sixteen).length).toBeLessThanOrEqual(4096);
    expect(parseGatewayMetadata(JSON.stringify(sixteen))).toEqual(sixteen);
    expect(parseGatewayMetadata(`{"${"k".repeat(64)}":"${"v".repeat(256)}"}`)).toEqual({ ["k".repeat(64)]: "v".repeat(256) });
  });

  it("merges the caller's values over the key's defaults", () => {
    expect(mergeGatewayMetadata({ team: "search", env: "dev" }, { env: "prod", run: "7" })).toEqual({ team: "search", env: "prod", run: "7" });
    const defaults = { team: "search" };
    expect(mergeGatewayMetadata(defaults, noMetadata)).toBe(defaults);
    expect(mergeGatewayMetadata(undefined, noMetadata)).toBe(noMetadata);
  });
});

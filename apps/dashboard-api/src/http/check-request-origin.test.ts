import type { Request } from "express";
import { describe, expect, it } from "vitest";
import { checkRequestOrigin } from "./check-request-origin.js";

const request = (method: string, headers: Record<string, string>) => ({ method, headers }) as unknown as Request;
const allowedOrigins = ["https://dash.example.com"];
const outcome = (method: string, headers: Record<string, string>, hasSessionCookie = true) => {
  try {
    checkRequestOrigin(request(method, headers), { allowedOrigins, hasSessionCookie });
    return "allowed";
  } catch (error) {
    return (error as { code: string }).code;
  }
};

describe("checkRequestOrigin", () => {
  it("lets safe methods through", () => {
    expect(outcome("GET", { origin: "https://evil.example" })).toBe("allowed");
  });
  it("accepts the dashboard origin or Sec-Fetch-Site same-origin for unsafe methods with a cookie", () => {
    expect(outcome("POST", { origin: "https://dash.example.com" })).toBe("allowed");
    expect(outcome("DELETE", { "sec-fetch-site": "same-origin" })).toBe("allowed");
  });
  it("refuses other origins, Origin null, missing evidence and cross-site fetches", () => {
    expect(outcome("POST", { origin: "https://evil.example" })).toBe("origin_rejected");
    expect(outcome("PATCH", { origin: "null" })).toBe("origin_rejected");
    expect(outcome("POST", {})).toBe("origin_rejected");
    expect(outcome("POST", { "sec-fetch-site": "same-site" })).toBe("origin_rejected");
  });
  it("lets cookie-less calls without Origin through (curl login) but not a foreign Origin", () => {
    expect(outcome("POST", {}, false)).toBe("allowed");
    expect(outcome("POST", { origin: "https://evil.example" }, false)).toBe("origin_rejected");
  });
});

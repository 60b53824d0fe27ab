import { describe, expect, it } from "vitest";
import { serializeClearedSessionCookie, serializeSessionCookie } from "./session-cookie.js";

describe("serializeSessionCookie", () => {
  it("sets every hardening attribute and an expiry equal to the session's", () => {
    const now = new Date("2025-01-01T00:00:00Z");
    const cookie = serializeSessionCookie({ value: "abc", expiresAt: new Date("2025-01-01T12:00:00Z"), secure: true, now });
    expect(cookie).toBe("gateway_session=abc; Path=/; Expires=Wed, 01 Jan 2025 12:00:00 GMT; Max-Age=43200; HttpOnly; Secure; SameSite=Lax");
    expect(serializeSessionCookie({ value: "abc", expiresAt: new Date("2025-01-01T12:00:00Z"), secure: false, now })).not.toContain("Secure");
  });

  it("clears the cookie", () => {
    expect(serializeClearedSessionCookie(true)).toBe("gateway_session=; Path=/; Expires=Thu, 01 Jan 1970 00:00:00 GMT; Max-Age=0; HttpOnly; Secure; SameSite=Lax");
  });
});

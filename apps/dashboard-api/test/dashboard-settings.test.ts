import { describe, expect, it } from "vitest";
import { readDashboardSettings } from "../src/dashboard-settings.js";

describe("DASHBOARD_GATEWAY_PUBLIC_URL", () => {
  it("defaults to the gateway's default address and keeps a configured base without its trailing slash", () => {
    expect(readDashboardSettings({}).gatewayPublicUrl).toBe("http://127.0.0.1:8080");
    expect(readDashboardSettings({ DASHBOARD_GATEWAY_PUBLIC_URL: " https://gateway.example.com/ " }).gatewayPublicUrl).toBe("https://gateway.example.com");
    expect(readDashboardSettings({ DASHBOARD_GATEWAY_PUBLIC_URL: "https://example.com/ai-gateway/" }).gatewayPublicUrl).toBe("https://example.com/ai-gateway");
  });

  it("refuses what is no base URL, naming the variable", () => {
    for (const value of ["gateway.example.com", "ftp://gateway.example.com", "https://gateway.example.com/?x=1", "https://user:secret@gateway.example.com"]) {
      expect(() => readDashboardSettings({ DASHBOARD_GATEWAY_PUBLIC_URL: value }), value).toThrow(/DASHBOARD_GATEWAY_PUBLIC_URL/);
    }
  });
});

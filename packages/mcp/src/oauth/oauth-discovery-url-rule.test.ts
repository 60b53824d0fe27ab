import { describe, expect, it } from "vitest";
import { checkOAuthDiscoveryUrl } from "./oauth-discovery-url-rule.js";

// Pure checks of URL text: nothing is resolved or contacted.
describe("checkOAuthDiscoveryUrl", () => {
  const server = { serverUrl: "https://mcp.example.com/mcp" };

  it("allows https on the MCP server's own origin", () => {
    expect(checkOAuthDiscoveryUrl("https://mcp.example.com/.well-known/oauth-protected-resource/mcp", server)).toBeNull();
  });

  it("refuses another origin, naming it and the setting that would allow it", () => {
    expect(checkOAuthDiscoveryUrl("https://auth.example.net/as", server)).toBe(
      "The MCP server named an OAuth URL on https://auth.example.net, outside its own origin https://mcp.example.com: " +
        "OAuth discovery only uses the MCP server's own origin unless the other origin is listed in DASHBOARD_MCP_OAUTH_ORIGINS.",
    );
    expect(checkOAuthDiscoveryUrl("http://mcp.example.com/as", server)).toMatch(/outside its own origin/);
    expect(checkOAuthDiscoveryUrl("https://mcp.example.com:8443/as", server)).toMatch(/outside its own origin/);
  });

  it("never echoes the refused URL's path or query", () => {
    const reason = checkOAuthDiscoveryUrl("https://auth.example.net/secret/path?token=abc", server);
    expect(reason).not.toContain("secret");
    expect(reason).not.toContain("token=abc");
  });

  it("allows configured origins", () => {
    expect(checkOAuthDiscoveryUrl("https://auth.example.net/as", { ...server, allowedOrigins: ["https://auth.example.net"] })).toBeNull();
    expect(checkOAuthDiscoveryUrl("https://auth.example.net/as", { ...server, allowedOrigins: ["https://auth.example.net/"] })).toBeNull();
  });

  it("allows plain http on the server's own origin only for an MCP server on a loopback host", () => {
    expect(checkOAuthDiscoveryUrl("http://127.0.0.1:4000/as", { serverUrl: "http://127.0.0.1:4000/mcp" })).toBeNull();
    expect(checkOAuthDiscoveryUrl("http://localhost:4000/as", { serverUrl: "http://localhost:4000/mcp" })).toBeNull();
    expect(checkOAuthDiscoveryUrl("http://127.0.0.2:4000/as", { serverUrl: "http://127.0.0.1:4000/mcp" })).toMatch(/outside its own origin/);
    expect(checkOAuthDiscoveryUrl("http://mcp.example.com/as", { serverUrl: "http://mcp.example.com/mcp" })).toMatch(/uses https only/);
  });

  it("refuses text that is not a URL", () => {
    expect(checkOAuthDiscoveryUrl("not a url", server)).toMatch(/not a valid URL/);
  });
});

import { describe, expect, it } from "vitest";
import { checkSsoIssuerUrl } from "./check-sso-issuer-url.js";

const allow = { privateAddresses: "allow" as const };
const deny = { privateAddresses: "deny" as const };

describe("checkSsoIssuerUrl", () => {
  it("accepts https issuers, and plain http on the local machine only", () => {
    expect(checkSsoIssuerUrl("https://acme.okta.com/oauth2/default", allow)).toBeNull();
    expect(checkSsoIssuerUrl("http://127.0.0.1:4000", allow)).toBeNull();
    expect(checkSsoIssuerUrl("http://localhost:4000/realms/test", allow)).toBeNull();
    expect(checkSsoIssuerUrl("http://login.example.com", allow)).toMatch(/https/);
  });

  it("refuses credentials, queries, fragments and what is not a URL", () => {
    expect(checkSsoIssuerUrl("https://user:pass@login.example.com", allow)).toMatch(/credentials/);
    expect(checkSsoIssuerUrl("https://login.example.com/?tenant=1", allow)).toMatch(/query/);
    expect(checkSsoIssuerUrl("login.example.com", allow)).toMatch(/absolute URL/);
  });

  it("follows the outbound address policy: loopback refused under deny, metadata addresses always", () => {
    expect(checkSsoIssuerUrl("http://127.0.0.1:4000", deny)).toMatch(/outbound address policy/);
    expect(checkSsoIssuerUrl("https://metadata.google.internal", allow)).toMatch(/outbound address policy/);
  });
});

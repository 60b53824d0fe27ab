import { describe, expect, it } from "vitest";
import {
  checkOutboundAddress,
  checkOutboundHost,
  checkOutboundUrl,
  defaultOutboundAddressPolicy,
  outboundAddressPolicyFromEnvironment,
} from "./outbound-address-policy.js";

const allow = defaultOutboundAddressPolicy;
const deny = { privateAddresses: "deny" } as const;

// Pure checks of address and URL text: nothing here is resolved or contacted.
describe("outbound address policy", () => {
  it("reads GATEWAY_OUTBOUND_PRIVATE_ADDRESSES: allow by default, deny when set, a typo fails", () => {
    expect(outboundAddressPolicyFromEnvironment({})).toEqual({ privateAddresses: "allow" });
    expect(outboundAddressPolicyFromEnvironment({ GATEWAY_OUTBOUND_PRIVATE_ADDRESSES: "" })).toEqual({ privateAddresses: "allow" });
    expect(outboundAddressPolicyFromEnvironment({ GATEWAY_OUTBOUND_PRIVATE_ADDRESSES: "deny" })).toEqual({ privateAddresses: "deny" });
    expect(() => outboundAddressPolicyFromEnvironment({ GATEWAY_OUTBOUND_PRIVATE_ADDRESSES: "no" })).toThrow(/must be 'allow' or 'deny'/);
  });

  it("always refuses link-local and metadata addresses, naming the address and the rule", () => {
    for (const policy of [allow, deny]) {
      expect(checkOutboundAddress("169.254.169.254", policy)).toEqual({
        address: "169.254.169.254",
        category: "metadata",
        rule: "never_allowed",
        message: "169.254.169.254 is a cloud metadata address; link-local and cloud metadata addresses are never allowed.",
      });
      expect(checkOutboundAddress("fe80::1", policy)?.message).toBe("fe80::1 is a link-local address; link-local and cloud metadata addresses are never allowed.");
      expect(checkOutboundAddress("0.0.0.0", policy)?.rule).toBe("never_allowed");
      expect(checkOutboundAddress("224.0.0.1", policy)?.rule).toBe("never_allowed");
    }
  });

  it("allows loopback and private ranges under allow, refuses them under deny", () => {
    for (const address of ["127.0.0.1", "::1", "10.1.2.3", "192.168.0.10", "fd12::1", "::ffff:10.0.0.1"]) {
      expect(checkOutboundAddress(address, allow)).toBeNull();
      expect(checkOutboundAddress(address, deny)).toMatchObject({ rule: "private_addresses_denied" });
    }
    expect(checkOutboundAddress("10.1.2.3", deny)?.message).toBe(
      "10.1.2.3 is a private address; loopback and private addresses are refused (GATEWAY_OUTBOUND_PRIVATE_ADDRESSES=deny).",
    );
    expect(checkOutboundAddress("192.0.2.1", deny)).toBeNull();
  });

  it("refuses text that is not an address when it stands for a resolved one", () => {
    expect(checkOutboundAddress("metadata.test", allow)).toMatchObject({ category: "not_an_address" });
  });

  it("checks URLs on the address their host names after URL normalisation (decimal, hex, octal, IPv6 forms)", () => {
    for (const url of [
      "http://169.254.169.254/latest/meta-data/",
      "http://2852039166/",
      "http://0xA9FEA9FE/",
      "http://0xa9.0xfe.0xa9.0xfe/",
      "http://0251.0376.0251.0376/",
      "http://169.254.43518/",
      "http://[::ffff:169.254.169.254]/",
      "http://[fd00:ec2::254]/",
      "https://169.254.169.254.:8443/v1",
      "http://metadata.google.internal/computeMetadata/v1/",
    ]) {
      expect(checkOutboundUrl(url, allow), url).toMatchObject({ rule: "never_allowed" });
    }
    expect(checkOutboundUrl("http://2852039166/", allow)?.address).toBe("169.254.169.254");
  });

  it("checks host names by what they always name, and leaves other names to connect time", () => {
    expect(checkOutboundHost("localhost", allow)).toBeNull();
    expect(checkOutboundHost("localhost", deny)).toMatchObject({ category: "loopback", rule: "private_addresses_denied" });
    expect(checkOutboundHost("api.localhost", deny)).toMatchObject({ category: "loopback" });
    expect(checkOutboundHost("[::1]", deny)).toMatchObject({ category: "loopback" });
    expect(checkOutboundHost("metadata.goog", allow)).toMatchObject({ category: "metadata" });
    expect(checkOutboundHost("models.internal.test", deny)).toBeNull();
    expect(checkOutboundUrl("not a url", deny)).toBeNull();
  });
});

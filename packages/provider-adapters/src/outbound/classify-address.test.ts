import { describe, expect, it } from "vitest";
import { classifyAddress } from "./classify-address.js";

// Pure classification of address text: nothing here is resolved or contacted.
describe("classifyAddress", () => {
  it.each([
    ["127.0.0.1", "loopback"],
    ["127.255.255.254", "loopback"],
    ["::1", "loopback"],
    ["[::1]", "loopback"],
    ["0:0:0:0:0:0:0:1", "loopback"],
    ["10.0.0.1", "private"],
    ["172.16.0.1", "private"],
    ["172.31.255.255", "private"],
    ["192.168.1.1", "private"],
    ["100.64.0.1", "private"],
    ["198.18.0.1", "private"],
    ["fc00::1", "private"],
    ["fd12:3456::1", "private"],
    ["fec0::1", "private"],
    ["169.254.0.1", "link_local"],
    ["169.254.255.255", "link_local"],
    ["fe80::1", "link_local"],
    ["fe80::1%eth0", "link_local"],
    ["febf::1", "link_local"],
    ["169.254.169.254", "metadata"],
    ["169.254.170.2", "metadata"],
    ["100.100.100.200", "metadata"],
    ["168.63.129.16", "metadata"],
    ["fd00:ec2::254", "metadata"],
    ["0.0.0.0", "unspecified"],
    ["0.1.2.3", "unspecified"],
    ["::", "unspecified"],
    ["224.0.0.1", "multicast"],
    ["239.255.255.250", "multicast"],
    ["ff02::1", "multicast"],
    ["240.0.0.1", "reserved"],
    ["255.255.255.255", "reserved"],
    ["192.0.2.1", "public"],
    ["2001:db8::1", "public"],
    ["172.32.0.1", "public"],
    ["100.128.0.1", "public"],
    ["fbff::1", "public"],
  ])("%s is %s", (address, category) => {
    expect(classifyAddress(address)).toBe(category);
  });

  it.each([
    ["::ffff:169.254.169.254", "metadata"],
    ["::ffff:a9fe:a9fe", "metadata"],
    ["[::ffff:a9fe:a9fe]", "metadata"],
    ["::ffff:127.0.0.1", "loopback"],
    ["::ffff:7f00:1", "loopback"],
    ["::ffff:10.0.0.1", "private"],
    ["::ffff:0.0.0.0", "unspecified"],
    ["::169.254.169.254", "metadata"],
    ["::127.0.0.1", "loopback"],
    ["64:ff9b::169.254.169.254", "metadata"],
    ["64:ff9b::a9fe:a9fe", "metadata"],
    ["64:ff9b::a00:1", "private"],
    ["2002:a9fe:a9fe::1", "metadata"],
    ["2002:7f00:1::", "loopback"],
    ["2002:c000:201::1", "public"],
  ])("an IPv6 address carrying an IPv4 one is classified by it: %s is %s", (address, category) => {
    expect(classifyAddress(address)).toBe(category);
  });

  it.each(["metadata.test", "localhost", "", "2852039166", "0xA9FEA9FE", "0251.0376.0251.0376", "169.254.169", "1.2.3.4.5", "::ffff:1.2.3"])(
    "%j is not an address (numeric IPv4 spellings are normalised by URL parsing first)",
    (text) => {
      expect(classifyAddress(text)).toBe("not_an_address");
    },
  );
});

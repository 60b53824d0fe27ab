import { isIPv4, isIPv6 } from "node:net";

/**
 * What kind of network an IP address belongs to, as the outbound address policy sees it:
 * - `public`: everything below does not name (documentation ranges included);
 * - `loopback`: 127.0.0.0/8, ::1;
 * - `private`: RFC 1918 (10/8, 172.16/12, 192.168/16), shared address space (100.64/10, CGNAT),
 *   benchmarking (198.18/15), unique local IPv6 (fc00::/7) and deprecated site-local (fec0::/10);
 * - `link_local`: 169.254.0.0/16, fe80::/10;
 * - `metadata`: cloud instance metadata services (AWS/GCP/Azure/OCI 169.254.169.254, AWS ECS
 *   169.254.170.2, AWS IPv6 fd00:ec2::254, Alibaba 100.100.100.200, Azure WireServer 168.63.129.16);
 * - `unspecified`: 0.0.0.0/8 ("this network": Linux connects 0.0.0.0 to the local host), ::;
 * - `multicast`: 224.0.0.0/4, ff00::/8;
 * - `reserved`: 240.0.0.0/4 (with the broadcast address 255.255.255.255);
 * - `not_an_address`: the text is not an IP address (a host name).
 */
export type AddressCategory =
  | "public"
  | "loopback"
  | "private"
  | "link_local"
  | "metadata"
  | "unspecified"
  | "multicast"
  | "reserved"
  | "not_an_address";

const metadataIpv4 = new Set(["169.254.169.254", "169.254.170.2", "100.100.100.200", "168.63.129.16"]);

/**
 * Classifies an IP address given as text: dotted IPv4, or IPv6 in any form (brackets and a zone
 * index `%eth0` are accepted). An IPv6 address that carries an IPv4 address (IPv4-mapped
 * `::ffff:a.b.c.d` in dotted or hex form, IPv4-compatible `::a.b.c.d`, NAT64 `64:ff9b::/96`,
 * 6to4 `2002::/16`) is classified by that IPv4 address, since that is where the packets go.
 * Pure: no resolution, nothing is sent. Numeric IPv4 spellings such as `2852039166` or
 * `0xA9FEA9FE` are not addresses here; URL parsing (`new URL(...).hostname`) normalises them to
 * the dotted form first.
 */
export function classifyAddress(address: string): AddressCategory {
  let text = address.trim();
  if (text.startsWith("[") && text.endsWith("]")) text = text.slice(1, -1);
  if (isIPv4(text)) return classifyIpv4(ipv4Value(text));
  const zone = text.indexOf("%");
  if (zone !== -1) text = text.slice(0, zone);
  if (!isIPv6(text)) return "not_an_address";
  return classifyIpv6(ipv6Groups(text));
}

function ipv4Value(text: string): number {
  const [a = 0, b = 0, c = 0, d = 0] = text.split(".").map(Number);
  return ((a << 24) >>> 0) + (b << 16) + (c << 8) + d;
}

function inIpv4Range(value: number, base: number, prefixLength: number): boolean {
  const mask = prefixLength === 0 ? 0 : (0xffffffff << (32 - prefixLength)) >>> 0;
  return ((value & mask) >>> 0) === base;
}

const ipv4Ranges: ReadonlyArray<readonly [number, number, AddressCategory]> = [
  [ipv4Value("0.0.0.0"), 8, "unspecified"],
  [ipv4Value("127.0.0.0"), 8, "loopback"],
  [ipv4Value("169.254.0.0"), 16, "link_local"],
  [ipv4Value("10.0.0.0"), 8, "private"],
  [ipv4Value("172.16.0.0"), 12, "private"],
  [ipv4Value("192.168.0.0"), 16, "private"],
  [ipv4Value("100.64.0.0"), 10, "private"],
  [ipv4Value("198.18.0.0"), 15, "private"],
  [ipv4Value("224.0.0.0"), 4, "multicast"],
  [ipv4Value("240.0.0.0"), 4, "reserved"],
];

function classifyIpv4(value: number): AddressCategory {
  const dotted = `${value >>> 24}.${(value >>> 16) & 0xff}.${(value >>> 8) & 0xff}.${value & 0xff}`;
  if (metadataIpv4.has(dotted)) return "metadata";
  for (const [base, prefixLength, category] of ipv4Ranges) {
    if (inIpv4Range(value, base, prefixLength)) return category;
  }
  return "public";
}

/** The eight 16-bit groups of a valid IPv6 text (a trailing dotted IPv4 counts as two groups). */
function ipv6Groups(text: string): number[] {
  let body = text.toLowerCase();
  const tail: number[] = [];
  const lastColon = body.lastIndexOf(":");
  const last = body.slice(lastColon + 1);
  if (last.includes(".")) {
    const value = ipv4Value(last);
    tail.push(value >>> 16, value & 0xffff);
    body = body.slice(0, lastColon + 1);
    // "::1.2.3.4" leaves "::", "64:ff9b::1.2.3.4" leaves "64:ff9b::", "::ffff:1.2.3.4" leaves "::ffff:".
    if (body.endsWith(":") && !body.endsWith("::")) body = body.slice(0, -1);
  }
  const parse = (part: string) => (part === "" ? [] : part.split(":").map((group) => Number.parseInt(group, 16)));
  const compression = body.indexOf("::");
  let groups: number[];
  if (compression === -1) {
    groups = [...parse(body), ...tail];
  } else {
    const head = parse(body.slice(0, compression));
    const rest = [...parse(body.slice(compression + 2)), ...tail];
    groups = [...head, ...new Array<number>(8 - head.length - rest.length).fill(0), ...rest];
  }
  return groups;
}

function classifyIpv6(groups: number[]): AddressCategory {
  const [g0 = 0, g1 = 0, g2 = 0, g3 = 0, g4 = 0, g5 = 0, g6 = 0, g7 = 0] = groups;
  const embedded = ((g6 << 16) >>> 0) + g7;
  const upperZero = g0 === 0 && g1 === 0 && g2 === 0 && g3 === 0 && g4 === 0;
  if (upperZero && g5 === 0) {
    if (g6 === 0 && g7 === 0) return "unspecified";
    if (g6 === 0 && g7 === 1) return "loopback";
    // IPv4-compatible (deprecated) ::a.b.c.d.
    return classifyIpv4(embedded);
  }
  // IPv4-mapped ::ffff:a.b.c.d.
  if (upperZero && g5 === 0xffff) return classifyIpv4(embedded);
  // NAT64 well-known prefix 64:ff9b::/96.
  if (g0 === 0x64 && g1 === 0xff9b && g2 === 0 && g3 === 0 && g4 === 0 && g5 === 0) return classifyIpv4(embedded);
  // 6to4 2002:aabb:ccdd::/48 carries aa.bb.cc.dd.
  if (g0 === 0x2002) return classifyIpv4(((g1 << 16) >>> 0) + g2);
  if (g0 === 0xfd00 && g1 === 0x0ec2 && g2 === 0 && g3 === 0 && g4 === 0 && g5 === 0 && g6 === 0 && g7 === 0x254) return "metadata";
  if ((g0 & 0xffc0) === 0xfe80) return "link_local";
  if ((g0 & 0xffc0) === 0xfec0) return "private";
  if ((g0 & 0xfe00) === 0xfc00) return "private";
  if ((g0 & 0xff00) === 0xff00) return "multicast";
  return "public";
}

import type { LookupAddress } from "node:dns";
import type { LookupFunction } from "node:net";
import { describe, expect, it } from "vitest";
import { defaultOutboundAddressPolicy } from "./outbound-address-policy.js";
import { OutboundAddressRefusedError } from "./outbound-address-refused-error.js";
import { createOutboundLookup } from "./create-outbound-lookup.js";

/** A resolver that answers the given addresses in turn, one call after the other (no DNS). */
function scriptedLookup(answers: string[][]): LookupFunction & { calls: string[] } {
  const calls: string[] = [];
  const lookup = ((hostname: string, options: { all?: boolean }, callback: (...args: unknown[]) => void) => {
    calls.push(hostname);
    const addresses = answers[Math.min(calls.length - 1, answers.length - 1)]!;
    const entries: LookupAddress[] = addresses.map((address) => ({ address, family: address.includes(":") ? 6 : 4 }));
    if (options.all) callback(null, entries);
    else callback(null, entries[0]!.address, entries[0]!.family);
  }) as unknown as LookupFunction & { calls: string[] };
  lookup.calls = calls;
  return lookup;
}

function resolve(lookup: LookupFunction, hostname: string, all: boolean): Promise<{ error: NodeJS.ErrnoException | null; address: unknown }> {
  return new Promise((done) => lookup(hostname, { all }, (error, address) => done({ error, address })));
}

// The lookup is called directly: no socket exists, nothing is sent.
describe("createOutboundLookup", () => {
  it("refuses a name that resolves to the metadata address, naming the name, the address and the rule", async () => {
    const lookup = createOutboundLookup({ policy: defaultOutboundAddressPolicy, lookup: scriptedLookup([["169.254.169.254"]]) });
    for (const all of [false, true]) {
      const { error } = await resolve(lookup, "metadata.test", all);
      expect(error).toBeInstanceOf(OutboundAddressRefusedError);
      expect(error?.code).toBe("ERR_OUTBOUND_ADDRESS_REFUSED");
      expect(error?.message).toBe(
        "Outbound address refused: metadata.test resolves to 169.254.169.254 is a cloud metadata address; link-local and cloud metadata addresses are never allowed.",
      );
    }
  });

  it("refuses a name when any of its addresses is refused (the socket may try each)", async () => {
    const lookup = createOutboundLookup({ policy: defaultOutboundAddressPolicy, lookup: scriptedLookup([["127.0.0.1", "fe80::1"]]) });
    const { error } = await resolve(lookup, "mixed.test", true);
    expect((error as OutboundAddressRefusedError).refusal).toMatchObject({ address: "fe80::1", category: "link_local" });
  });

  it("checks every resolution again, so a name rebound to an internal address is refused", async () => {
    const base = scriptedLookup([["127.0.0.1"], ["169.254.169.254"]]);
    const lookup = createOutboundLookup({ policy: defaultOutboundAddressPolicy, lookup: base });
    expect(await resolve(lookup, "rebind.test", false)).toEqual({ error: null, address: "127.0.0.1" });
    const second = await resolve(lookup, "rebind.test", false);
    expect(second.error).toBeInstanceOf(OutboundAddressRefusedError);
    expect(base.calls).toEqual(["rebind.test", "rebind.test"]);
  });

  it("passes allowed answers and resolver errors through unchanged", async () => {
    const allowed = createOutboundLookup({ policy: defaultOutboundAddressPolicy, lookup: scriptedLookup([["127.0.0.1", "::1"]]) });
    expect((await resolve(allowed, "local.test", true)).address).toEqual([
      { address: "127.0.0.1", family: 4 },
      { address: "::1", family: 6 },
    ]);
    const failing = createOutboundLookup({
      policy: defaultOutboundAddressPolicy,
      lookup: ((_hostname: string, _options: unknown, callback: (error: Error) => void) => callback(Object.assign(new Error("not found"), { code: "ENOTFOUND" }))) as unknown as LookupFunction,
    });
    expect((await resolve(failing, "missing.test", false)).error?.code).toBe("ENOTFOUND");
  });

  it("refuses loopback answers under GATEWAY_OUTBOUND_PRIVATE_ADDRESSES=deny", async () => {
    const lookup = createOutboundLookup({ policy: { privateAddresses: "deny" }, lookup: scriptedLookup([["127.0.0.2"]]) });
    const { error } = await resolve(lookup, "model.test", false);
    expect((error as OutboundAddressRefusedError).refusal.rule).toBe("private_addresses_denied");
  });
});

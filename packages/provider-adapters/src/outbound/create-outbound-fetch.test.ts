import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { type CountingServer, loopbackLookup, startCountingServer } from "../../test/outbound-server.js";
import { createOutboundFetch } from "./create-outbound-fetch.js";
import { OutboundAddressRefusedError } from "./outbound-address-refused-error.js";

let server: CountingServer | undefined;
const closers: Array<() => Promise<void>> = [];

afterEach(async () => {
  await server?.close();
  server = undefined;
  for (const close of closers.splice(0)) await close();
});

describe("createOutboundFetch", () => {
  it("rejects before connecting when the resolved address is refused, with the refusal as the cause", async () => {
    server = await startCountingServer("127.0.0.1");
    const lookup = loopbackLookup({ "collector.test": "127.0.0.1" });
    const outboundFetch = createOutboundFetch({ policy: { privateAddresses: "deny" }, lookup });
    const error = await outboundFetch(`http://collector.test:${server.port}/v1/traces`, { method: "POST", body: "{}" }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(TypeError);
    expect((error as Error).message).toBe(
      "fetch failed: Outbound address refused: collector.test resolves to 127.0.0.1 is a loopback address; loopback and private addresses are refused (GATEWAY_OUTBOUND_PRIVATE_ADDRESSES=deny).",
    );
    const refusal = OutboundAddressRefusedError.find(error);
    expect(refusal?.refusal).toMatchObject({ address: "127.0.0.1", rule: "private_addresses_denied" });
    expect(lookup.calls).toEqual(["collector.test"]);
    expect(server.connections()).toBe(0);
  });

  it("refuses a literal address as written", async () => {
    server = await startCountingServer("127.0.0.2");
    const outboundFetch = createOutboundFetch({ policy: { privateAddresses: "deny" }, lookup: loopbackLookup({}) });
    const error = await outboundFetch(`http://127.0.0.2:${server.port}/`).catch((caught: unknown) => caught);
    expect(OutboundAddressRefusedError.find(error)?.refusal.category).toBe("loopback");
    expect(server.connections()).toBe(0);
  });

  it("never follows a redirect, whatever the caller asks", async () => {
    let hits = 0;
    const http = createServer((request, response) => {
      hits += 1;
      if (request.url === "/start") response.writeHead(302, { location: "/elsewhere" }).end();
      else response.writeHead(200).end("followed");
    });
    await new Promise<void>((resolve) => http.listen(0, "127.0.0.1", resolve));
    closers.push(() => new Promise<void>((resolve) => http.close(() => resolve())));
    const port = (http.address() as AddressInfo).port;
    const outboundFetch = createOutboundFetch({ policy: { privateAddresses: "allow" } });
    const response = await outboundFetch(`http://127.0.0.1:${port}/start`, { redirect: "follow" });
    expect(response.status).toBe(302);
    expect(response.headers.get("location")).toBe("/elsewhere");
    await response.arrayBuffer();
    expect(hits).toBe(1);
  });
});

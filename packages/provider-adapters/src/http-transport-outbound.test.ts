import { afterEach, describe, expect, it } from "vitest";
import { GatewayError } from "@gateway/errors";
import { callContext, rejectionOf } from "../test/fake-upstream.js";
import { type CountingServer, loopbackLookup, startCountingServer } from "../test/outbound-server.js";
import { createHttpTransport } from "./http-transport.js";
import type { HttpTransport } from "./http-transport.js";

let server: CountingServer | undefined;
let transport: HttpTransport | undefined;

afterEach(async () => {
  await transport?.close();
  await server?.close();
  transport = undefined;
  server = undefined;
});

const deny = { privateAddresses: "deny" } as const;
const credential = "sk-test-secret-credential-0123456789";

// Only loopback is ever connected to: refusals are shown with loopback addresses under a policy
// that refuses loopback, and asserted to happen before the listener sees a connection.
describe("createHttpTransport outbound address policy", () => {
  it("refuses a host name whose resolved address the policy refuses, before connecting, without the credential", async () => {
    server = await startCountingServer("127.0.0.1");
    const lookup = loopbackLookup({ "model.test": "127.0.0.1" });
    transport = createHttpTransport({ outboundAddresses: deny, lookup });
    const error = await rejectionOf(
      transport.requestJson({ url: `http://model.test:${server.port}/v1/chat/completions`, body: {}, headers: { authorization: `Bearer ${credential}` }, context: callContext(), provider: "internal" }),
    );
    expect(GatewayError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ code: "upstream_error", status: 502, retryable: false });
    expect(error.message).toBe(
      "The connection 'internal' is refused by the outbound address policy: model.test resolves to 127.0.0.1 is a loopback address; loopback and private addresses are refused (GATEWAY_OUTBOUND_PRIVATE_ADDRESSES=deny).",
    );
    expect(error.details).toMatchObject({ rule: "outbound_address_private_addresses_denied", address_kind: "loopback" });
    expect(JSON.stringify({ message: error.message, details: error.details })).not.toContain(credential);
    expect(lookup.calls).toEqual(["model.test"]);
    expect(server.connections()).toBe(0);
  });

  it("refuses an IP-literal host as written (no lookup happens for it), streams included", async () => {
    server = await startCountingServer("127.0.0.2");
    const lookup = loopbackLookup({});
    transport = createHttpTransport({ outboundAddresses: deny, lookup });
    const json = await rejectionOf(transport.requestJson({ url: `http://127.0.0.2:${server.port}/v1`, body: {}, context: callContext() }));
    const stream = await rejectionOf(transport.requestStream({ url: `http://127.0.0.2:${server.port}/v1`, body: {}, context: callContext() }));
    for (const error of [json, stream]) {
      expect(error).toMatchObject({ code: "upstream_error", status: 502 });
      expect(error.message).toContain("127.0.0.2 is a loopback address");
    }
    expect(lookup.calls).toEqual([]);
    expect(server.connections()).toBe(0);
  });

  it("connects through the checked resolver when the policy allows the address", async () => {
    server = await startCountingServer("127.0.0.1");
    const lookup = loopbackLookup({ "model.test": "127.0.0.1" });
    transport = createHttpTransport({ outboundAddresses: { privateAddresses: "allow" }, lookup });
    const answer = await transport.requestJson({ url: `http://model.test:${server.port}/v1/models`, context: callContext() });
    expect(answer).toMatchObject({ status: 200, body: {} });
    expect(lookup.calls).toEqual(["model.test"]);
    expect(server.connections()).toBe(1);
  });
});

import { createServer } from "node:http";
import type { AddressInfo, LookupFunction } from "node:net";
import { createOutboundFetch } from "@gateway/provider-adapters";
import { afterEach, describe, expect, it } from "vitest";
import { postJson } from "./post-json.js";

const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});

/** A loopback HTTP server counting connections and requests; `/redirect` answers 302 to `/landing`. */
async function startCollector() {
  const counts = { connections: 0, requests: 0 };
  const server = createServer((request, response) => {
    counts.requests += 1;
    if (request.url === "/redirect") response.writeHead(302, { location: "/landing" }).end();
    else response.writeHead(200).end();
  });
  server.on("connection", () => (counts.connections += 1));
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  closers.push(() => new Promise<void>((resolve) => server.close(() => resolve())));
  return { port: (server.address() as AddressInfo).port, counts };
}

/** Resolves `collector.test` to 127.0.0.1 (no DNS). */
const lookup = ((hostname: string, options: { all?: boolean }, callback: (...args: unknown[]) => void) => {
  if (hostname !== "collector.test") callback(Object.assign(new Error("not found"), { code: "ENOTFOUND" }));
  else if (options.all) callback(null, [{ address: "127.0.0.1", family: 4 }]);
  else callback(null, "127.0.0.1", 4);
}) as unknown as LookupFunction;

describe("postJson outbound address policy", () => {
  it("reports a refused address as the outcome, naming the rule, before any connection", async () => {
    const collector = await startCollector();
    const outcome = await postJson({
      url: `http://collector.test:${collector.port}/v1/traces`,
      body: "{}",
      timeoutMs: 5000,
      fetch: createOutboundFetch({ policy: { privateAddresses: "deny" }, lookup }),
    });
    expect(outcome).toEqual({
      delivered: false,
      status: null,
      failure:
        "Refused by the outbound address policy: collector.test resolves to 127.0.0.1 is a loopback address; loopback and private addresses are refused (GATEWAY_OUTBOUND_PRIVATE_ADDRESSES=deny).",
    });
    expect(collector.counts.connections).toBe(0);
  });

  it("delivers through the policy's fetch by default (loopback allowed) and never follows a redirect", async () => {
    const collector = await startCollector();
    expect(await postJson({ url: `http://127.0.0.1:${collector.port}/hook`, body: "{}", timeoutMs: 5000 })).toMatchObject({ delivered: true, status: 200 });
    const redirected = await postJson({ url: `http://127.0.0.1:${collector.port}/redirect`, body: "{}", timeoutMs: 5000 });
    expect(redirected).toMatchObject({ delivered: false, status: 302 });
    expect(collector.counts.requests).toBe(2);
  });
});

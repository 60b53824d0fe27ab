import { createServer } from "node:http";
import { createServer as createTcpServer } from "node:net";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { createGatewayRuntime } from "../src/create-gateway-runtime.js";
import { readGatewaySettings } from "../src/gateway-settings.js";
import { createGatewayTestSnapshot, testApiKey } from "./support/create-gateway-test-snapshot.js";

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  await Promise.all(closers.splice(0).map((close) => close()));
});

/** A loopback listener standing in for a provider: it only counts connections. */
async function startCountingListener() {
  const counts = { connections: 0 };
  const listener = createTcpServer((socket) => {
    counts.connections += 1;
    socket.destroy();
  });
  await new Promise<void>((resolve) => listener.listen(0, "127.0.0.1", resolve));
  closers.push(() => new Promise<void>((resolve) => listener.close(() => resolve())));
  return { url: `http://127.0.0.1:${(listener.address() as AddressInfo).port}`, counts };
}

async function startGateway(upstreamUrl: string, outboundPrivateAddresses: "allow" | "deny") {
  const snapshot = createGatewayTestSnapshot({ openai: upstreamUrl });
  const runtime = await createGatewayRuntime({
    source: { load: async () => snapshot, readVersion: async () => snapshot.version },
    sink: { write: async () => undefined },
    settings: {
      bodyLimitBytes: 1_000_000,
      requestTimeoutMs: 10_000,
      upstreamTimeoutMs: 5_000,
      upstreamConnectTimeoutMs: 1_000,
      snapshotPollMs: 60_000,
      usageBatchSize: 100,
      usageFlushMs: 10,
      redisUrl: undefined,
      outboundPrivateAddresses,
    },
  });
  const server = createServer(runtime.handler).listen(0, "127.0.0.1");
  await new Promise<void>((resolve) => server.once("listening", () => resolve()));
  closers.push(async () => {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
    await runtime.close({ timeoutMs: 1000 });
  });
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

const chat = (url: string) =>
  fetch(`${url}/v1/chat/completions`, {
    method: "POST",
    headers: { authorization: `Bearer ${testApiKey}`, "content-type": "application/json" },
    body: JSON.stringify({ model: "openai-mock/openai/gpt-4o-mini", messages: [{ role: "user", content: "Hi" }] }),
  });

describe("GATEWAY_OUTBOUND_PRIVATE_ADDRESSES", () => {
  it("is allow by default, deny when set, and a typo stops the start", () => {
    expect(readGatewaySettings({}).outboundPrivateAddresses).toBe("allow");
    expect(readGatewaySettings({ GATEWAY_OUTBOUND_PRIVATE_ADDRESSES: "deny" }).outboundPrivateAddresses).toBe("deny");
    expect(() => readGatewaySettings({ GATEWAY_OUTBOUND_PRIVATE_ADDRESSES: "private" })).toThrow(/GATEWAY_OUTBOUND_PRIVATE_ADDRESSES/);
  });

  it("deny: a connection on a loopback address fails with 502 naming the policy, and nothing reaches it (no credential)", async () => {
    const upstream = await startCountingListener();
    const gateway = await startGateway(upstream.url, "deny");
    const response = await chat(gateway);
    const text = await response.text();
    expect(response.status, text).toBe(502);
    const body = JSON.parse(text) as { error: { code: string; message: string } };
    expect(body.error.code).toBe("upstream_error");
    expect(body.error.message).toContain("refused by the outbound address policy: 127.0.0.1 is a loopback address");
    expect(text).not.toContain("sk-upstream-secret-openai");
    expect(upstream.counts.connections).toBe(0);
  });

  it("allow: the same connection is called", async () => {
    const upstream = await startCountingListener();
    const gateway = await startGateway(upstream.url, "allow");
    const response = await chat(gateway);
    await response.text();
    // The listener closes every connection at once: an upstream failure, but one that connected.
    expect(response.status).toBeGreaterThanOrEqual(500);
    expect(upstream.counts.connections).toBeGreaterThan(0);
  });
});

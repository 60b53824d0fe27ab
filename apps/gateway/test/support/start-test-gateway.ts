import type { ControlPlaneSnapshot, UsageEventRecord } from "@gateway/contracts";
import type { AddressInfo } from "node:net";

import { vi } from "vitest";
import { type GatewayRuntime, createGatewayRuntime } from "../../src/create-gateway-runtime.js";
import { createGatewayServer } from "../../src/create-gateway-server.js";
import type { GatewaySettings } from "../../src/gateway-settings.js";

/** A gateway on port 0 over an in-memory control plane whose snapshot the test can change. */
export interface TestGateway {
  url: string;
  runtime: GatewayRuntime;
  /** Usage events written so far (by the batched queue). */
  events: UsageEventRecord[];
  /** Replaces the control-plane snapshot (as a database change would) and reloads it. */
  setSnapshot(snapshot: ControlPlaneSnapshot): Promise<void>;
  /** Waits until the usage event of a request id has been written. */
  eventFor(requestId: string): Promise<UsageEventRecord>;
  close(): Promise<void>;
}

/** Starts a {@link TestGateway}. */
export async function startTestGateway(
  snapshot: ControlPlaneSnapshot,
  settings: Partial<GatewaySettings> = {},
): Promise<TestGateway> {
  let current = snapshot;
  const events: UsageEventRecord[] = [];
  const runtime = await createGatewayRuntime({
    source: { load: async () => current, readVersion: async () => current.version },
    sink: { write: async (batch) => void events.push(...batch) },
    settings: {
      bodyLimitBytes: 10 * 1024 * 1024,
      requestTimeoutMs: 30_000,
      upstreamTimeoutMs: 20_000,
      upstreamConnectTimeoutMs: 2_000,
      snapshotPollMs: 60_000,
      usageBatchSize: 100,
      usageFlushMs: 10,
      redisUrl: undefined,
      ...settings,
    },
  });
  const server = createGatewayServer(runtime.handler, { requestTimeoutMs: settings.requestTimeoutMs ?? 30_000 }).listen(0, "127.0.0.1");
  await new Promise<void>((resolve) => server.once("listening", () => resolve()));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    runtime,
    events,
    async setSnapshot(next) {
      current = next;
      await runtime.snapshots.refresh();
    },
    async eventFor(requestId) {
      return vi.waitFor(
        () => {
          const event = events.find((candidate) => candidate.requestId === requestId);
          if (event === undefined) throw new Error(`no usage event for ${requestId} yet`);
          return event;
        },
        { timeout: 3000, interval: 10 },
      );
    },
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await runtime.close({ timeoutMs: 2000 });
    },
  };
}

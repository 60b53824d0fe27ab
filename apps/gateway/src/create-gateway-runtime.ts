import { createAdmissionController, createMemoryStore, createRedisStore } from "@gateway/budget";
import {
  type ControlPlaneSource,
  type SnapshotHolder,
  type UsageQueue,
  type UsageSink,
  createAdapterRegistry,
  createSnapshotHolder,
  createUsageQueue,
} from "@gateway/pipeline";
import { createLatencyTracker, createMemoryAffinityStore } from "@gateway/policy-engine";
import { type HttpTransport, createHttpTransport } from "@gateway/provider-adapters";
import type { Express } from "express";
import { Redis } from "ioredis";
import { createGatewayApp } from "./create-gateway-app.js";
import type { GatewaySettings } from "./gateway-settings.js";

/** Minimal logger: errors and notices (never secrets). */
export interface GatewayLogger {
  info(message: string): void;
  error(message: string, error?: unknown): void;
}

/** Options of {@link createGatewayRuntime}. */
export interface GatewayRuntimeOptions {
  source: ControlPlaneSource;
  sink: UsageSink;
  settings: Pick<
    GatewaySettings,
    | "bodyLimitBytes"
    | "requestTimeoutMs"
    | "upstreamTimeoutMs"
    | "upstreamConnectTimeoutMs"
    | "snapshotPollMs"
    | "usageBatchSize"
    | "usageFlushMs"
    | "redisUrl"
  >;
  logger?: GatewayLogger;
}

/** A wired gateway: the Express app and the parts that need closing. */
export interface GatewayRuntime {
  app: Express;
  snapshots: SnapshotHolder;
  usageQueue: UsageQueue;
  transport: HttpTransport;
  /** Stops polling, drains the usage queue (up to `timeoutMs`), closes upstream pools and Redis. */
  close(options?: { timeoutMs?: number }): Promise<void>;
}

/**
 * Wires the data plane: snapshot holder (loaded before this resolves), usage queue, pooled
 * transport, adapters, admission controller (Redis counters when `redisUrl` is set, else
 * in-process memory) and the Express app.
 */
export async function createGatewayRuntime(options: GatewayRuntimeOptions): Promise<GatewayRuntime> {
  const { settings } = options;
  const logger = options.logger ?? silentLogger;
  const snapshots = createSnapshotHolder({
    source: options.source,
    pollIntervalMs: settings.snapshotPollMs,
    onError: (error) => logger.error("Control-plane snapshot refresh failed; serving the previous snapshot.", error),
  });
  await snapshots.start();
  const usageQueue = createUsageQueue({
    sink: options.sink,
    maxBatchSize: settings.usageBatchSize,
    flushIntervalMs: settings.usageFlushMs,
    onError: (error, context) =>
      logger.error(
        context.droppedEvents ? `Dropped ${context.droppedEvents} usage event(s).` : `Writing ${context.failedEvents} usage event(s) failed; will retry.`,
        error,
      ),
  });
  const transport = createHttpTransport({ connectTimeoutMs: settings.upstreamConnectTimeoutMs });
  const redis = settings.redisUrl === undefined ? undefined : new Redis(settings.redisUrl, { maxRetriesPerRequest: 1 });
  // Without a listener ioredis prints every reconnect failure; the admission policy decides what a failure means.
  redis?.on("error", (error: Error) => logger.error("Redis connection error.", error));
  const store = redis === undefined ? createMemoryStore() : createRedisStore({ redis, keyPrefix: "gateway:" });
  const admission = createAdmissionController({
    store,
    onStoreError: (error, context) => logger.error(`Counter store failed during ${context.operation}.`, error),
  });
  const app = createGatewayApp({
    snapshots,
    usage: usageQueue,
    adapters: createAdapterRegistry({ transport }),
    admission,
    affinityStore: createMemoryAffinityStore(),
    latencyTracker: createLatencyTracker(),
    requestTimeoutMs: settings.requestTimeoutMs,
    upstreamTimeoutMs: settings.upstreamTimeoutMs,
    bodyLimitBytes: settings.bodyLimitBytes,
    onInternalError: (error, requestId) => logger.error(`Internal error on ${requestId}.`, error),
  });
  return {
    app,
    snapshots,
    usageQueue,
    transport,
    async close(closeOptions = {}) {
      await snapshots.stop();
      await usageQueue.close({ timeoutMs: closeOptions.timeoutMs ?? 10_000 });
      await transport.close();
      if (redis) await redis.quit().catch(() => redis.disconnect());
    },
  };
}

const silentLogger: GatewayLogger = { info: () => undefined, error: () => undefined };

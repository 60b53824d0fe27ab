import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import { createDatabase, loadSecretBoxFromEnvironment, type DatabaseClient, type SqlClient } from "@gateway/db";
import { createDashboardApp, type DashboardApp, type DashboardThrottleSettings } from "./create-dashboard-app.js";
import { createConsoleLogger, type DashboardLogger } from "./dashboard-logger.js";
import { createDashboardServer } from "./http/create-dashboard-server.js";
import { readDashboardSettings, type DashboardSettings } from "./dashboard-settings.js";
import type { PlaygroundRunner } from "@gateway/pipeline";
import type { ControlPlaneChange } from "./services/control-plane-announcer.js";
import type { SecretCipher } from "./services/dashboard-services.js";
import { Redis } from "ioredis";
import type { LimitCounters } from "./services/limit-counters.js";
import { createMonitorEvaluator, type MonitorEvaluator } from "./monitors/create-monitor-evaluator.js";

/** Options of {@link startDashboard}. Everything is optional: the defaults come from the environment. */
export interface StartDashboardOptions {
  /**
   * A database handle to share (the gateway's, when both run in one process). Without it the
   * dashboard opens `DATABASE_URL` (default SQLite `gateway.db` in the data directory) and migrates it, and closes it on `close()`.
   */
  database?: DatabaseClient & SqlClient;
  /** The secret box to share; default from `GATEWAY_SECRET_KEY` (or `secret.key` in the data directory). */
  secretBox?: SecretCipher;
  /** The gateway pipeline's chat entry for the playground (the gateway provides it when in the same process). */
  playground?: PlaygroundRunner | null;
  settings?: Partial<DashboardSettings>;
  environment?: NodeJS.ProcessEnv;
  logger?: DashboardLogger;
  throttle?: DashboardThrottleSettings;
  /** Directory of the embedded default (SQLite file and secret key). Default `GATEWAY_DATA_DIR`, else `./data` (as the gateway). */
  dataDirectory?: string;
  /**
   * Called after every control-plane write, before it answers (awaited up to 1 s): when the
   * gateway runs in the same process, refresh its snapshot here (`scripts/start.mjs` does).
   */
  onControlPlaneChange?: ((change: ControlPlaneChange) => void | Promise<void>) | null;
  /**
   * The admission counters of the gateway in the same process (`scripts/start.mjs`): the budget
   * and rate-limit statuses then show exactly what it admits against. Unset: Redis counters when
   * `REDIS_URL` is set, else recorded usage.
   */
  limitCounters?: LimitCounters | null;
}

/** A running dashboard API. */
export interface RunningDashboard extends DashboardApp {
  server: Server;
  /** `http://host:port` it listens on. */
  url: string;
  port: number;
  /** Stops listening (and closes the database when it opened it). */
  close(): Promise<void>;
}

/**
 * Starts the dashboard API: `DASHBOARD_HOST` (127.0.0.1) and `DASHBOARD_PORT` (8081). Shares the
 * gateway's database handle when given one, so `pnpm start` can run both in one process.
 */
export async function startDashboard(options: StartDashboardOptions = {}): Promise<RunningDashboard> {
  const environment = options.environment ?? process.env;
  const settings = { ...readDashboardSettings(environment), ...options.settings };
  const logger = options.logger ?? createConsoleLogger({ level: settings.logLevel, ...(settings.logFormat === undefined ? {} : { format: settings.logFormat }) });
  const dataDirectory = options.dataDirectory ?? settings.dataDirectory;
  let ownedDatabase: { close(): Promise<void> } | null = null;
  let database = options.database;
  if (database === undefined) {
    const opened = createDatabase({ url: environment.DATABASE_URL, dataDirectory });
    await opened.migrate();
    database = opened;
    ownedDatabase = opened;
  }
  const secretBox =
    options.secretBox ??
    loadSecretBoxFromEnvironment({
      env: environment,
      dataDirectory,
      logger: { info: (message: string) => logger.info(message), warn: (message: string) => logger.warn(message) },
    });
  // REDIS_URL: announce control-plane writes to every gateway on `<GATEWAY_REDIS_KEY_PREFIX>control-plane`.
  let redis: Redis | null = null;
  if (settings.redisUrl !== null) {
    redis = new Redis(settings.redisUrl, { maxRetriesPerRequest: 1 });
    let lastErrorLoggedAt = 0;
    redis.on("error", (error: Error) => {
      // ioredis reports every reconnect attempt; one line per 30 s is enough (announcements are best effort).
      if (Date.now() - lastErrorLoggedAt < 30_000) return;
      lastErrorLoggedAt = Date.now();
      logger.warn("Redis connection error (control-plane announcements paused; gateways keep polling).", { error: error.message });
    });
  }
  const dashboard = createDashboardApp({
    database,
    secretBox,
    settings,
    logger,
    playground: options.playground ?? null,
    throttle: options.throttle,
    redis,
    onControlPlaneChange: options.onControlPlaneChange ?? null,
    ...(options.limitCounters ? { limitCounters: options.limitCounters } : {}),
  });
  // Parser-level refusals, a missing Host and requests slower than 60 s to arrive are answered in the dashboard error body.
  const server = createDashboardServer(dashboard.app);
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(settings.port, settings.host, () => {
      server.off("error", reject);
      resolve();
    });
  });
  // Monitors: every dashboard runs an evaluator; the lease lets one of them evaluate at a time.
  let monitors: MonitorEvaluator | null = null;
  if (settings.monitorIntervalMs > 0) {
    monitors = createMonitorEvaluator({
      database,
      secretBox,
      mailer: dashboard.services.mailer,
      logger,
      intervalMs: settings.monitorIntervalMs,
      deliveryTimeoutMs: settings.deliveryTimeoutMs,
      publicUrl: settings.publicUrl,
    });
    monitors.start();
  }
  const port = (server.address() as AddressInfo).port;
  const url = `http://${settings.host.includes(":") ? `[${settings.host}]` : settings.host}:${port}`;
  logger.info("dashboard API listening", { url, database: "displayUrl" in database ? String(database.displayUrl) : database.provider, email: dashboard.services.mailer.kind });
  return {
    ...dashboard,
    server,
    url,
    port,
    async close() {
      await monitors?.stop();
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
      dashboard.services.mailer.close();
      if (redis) await redis.quit().catch(() => redis?.disconnect());
      await ownedDatabase?.close();
    },
  };
}

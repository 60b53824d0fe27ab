import { randomBytes } from "node:crypto";
import { hostname } from "node:os";
import { claimEvaluatorLease, deleteExpiredMonitorRollups, releaseEvaluatorLease, type DatabaseClient, type SecretBox, type SqlClient } from "@gateway/db";
import type { NotificationMailer } from "@gateway/pipeline";
import type { DashboardLogger } from "../dashboard-logger.js";
import { deliverMonitorEvents, type MonitorDeliveryRetry } from "./deliver-monitor-events.js";
import { evaluateMonitorRules, type MonitorEvaluationResult } from "./evaluate-monitor-rules.js";

/** The lease row of the monitor evaluator. */
export const monitorEvaluatorLeaseName = "monitors";

/** Options of {@link createMonitorEvaluator}. */
export interface MonitorEvaluatorOptions {
  database: DatabaseClient & SqlClient;
  secretBox: SecretBox;
  mailer: NotificationMailer | null;
  logger: DashboardLogger;
  /** Between evaluations (default one minute). */
  intervalMs: number;
  /** How long a lease lasts without renewal (default three intervals): another process takes over after it. */
  leaseMs?: number;
  deliveryTimeoutMs: number;
  /** Retries of failed deliveries (default: 5 attempts, the first retry one interval later, then doubling). */
  deliveryRetry?: MonitorDeliveryRetry;
  publicUrl: string;
  /** Names this process in the lease row (default host, pid and a random suffix). */
  holder?: string;
  now?: () => Date;
  fetch?: typeof fetch;
}

/** One tick's outcome. */
export interface MonitorEvaluatorTick {
  /** Whether this process held the lease (and so evaluated). */
  leader: boolean;
  evaluation: MonitorEvaluationResult | null;
  deliveries: number;
}

/** A running monitor evaluator. */
export interface MonitorEvaluator {
  readonly holder: string;
  /** Starts the periodic evaluation (the first one at once). */
  start(): void;
  /** Takes or renews the lease and, when held, evaluates, delivers the outbox and drops expired rollup rows. */
  tick(): Promise<MonitorEvaluatorTick>;
  /** Stops, waits for a running tick, and gives the lease up so another process takes over at once. */
  stop(): Promise<void>;
}

/**
 * The monitor evaluator of a dashboard process. Every dashboard runs one; only the holder of the
 * `monitors` lease row evaluates, and another takes the row over once it has not been renewed
 * for `leaseMs` (its holder died or hangs). Every state change is written fenced by the lease,
 * and notifications leave through an outbox written in the same transaction, so a takeover or a
 * restart neither loses nor repeats a notification (each event is claimed by one sender; a
 * crash between the claim and recording the outcome leaves the delivery shown as `pending`).
 */
export function createMonitorEvaluator(options: MonitorEvaluatorOptions): MonitorEvaluator {
  const holder = options.holder ?? `${hostname()}:${process.pid}:${randomBytes(4).toString("hex")}`;
  const leaseMs = options.leaseMs ?? options.intervalMs * 3;
  const now = options.now ?? (() => new Date());
  let timer: NodeJS.Timeout | null = null;
  let running: Promise<unknown> | null = null;
  let stopped = false;

  async function tick(): Promise<MonitorEvaluatorTick> {
    const at = now();
    const leader = await claimEvaluatorLease(options.database, { name: monitorEvaluatorLeaseName, holder, now: at, ttlMs: leaseMs });
    if (!leader) return { leader, evaluation: null, deliveries: 0 };
    const evaluation = await evaluateMonitorRules({ database: options.database, lease: { name: monitorEvaluatorLeaseName, holder }, now: at });
    const deliveries = await deliverMonitorEvents({
      database: options.database,
      secretBox: options.secretBox,
      mailer: options.mailer,
      timeoutMs: options.deliveryTimeoutMs,
      retry: options.deliveryRetry ?? { maxAttempts: 5, backoffMs: options.intervalMs },
      publicUrl: options.publicUrl,
      now,
      ...(options.fetch ? { fetch: options.fetch } : {}),
    });
    await deleteExpiredMonitorRollups(options.database, at);
    return { leader, evaluation, deliveries };
  }

  function schedule(delayMs: number) {
    if (stopped) return;
    timer = setTimeout(() => {
      running = tick()
        .catch((error: unknown) => options.logger.warn("monitor evaluation failed", { error: error instanceof Error ? error.message : String(error) }))
        .finally(() => {
          running = null;
          schedule(options.intervalMs);
        });
    }, delayMs);
    timer.unref();
  }

  return {
    holder,
    start() {
      stopped = false;
      schedule(0);
    },
    tick,
    async stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      await running;
      await releaseEvaluatorLease(options.database, monitorEvaluatorLeaseName, holder).catch(() => undefined);
    },
  };
}

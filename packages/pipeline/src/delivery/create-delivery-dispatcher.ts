import type { UsageEventRecord } from "@gateway/contracts";
import type { ExportSpan } from "./build-otlp-trace-request.js";
import type { NotificationChannelConfig, TelemetryDestinationConfig } from "@gateway/contracts";
import { type NotificationEvent, type NotificationMailer, deliverNotification } from "./deliver-notification.js";
import { deliverTelemetry } from "./deliver-telemetry.js";
import type { DeliveryOutcome } from "./post-json.js";
import { usageEventToSpan } from "./usage-event-span.js";

/** An enabled telemetry destination with its decrypted configuration. */
export interface DeliveryTelemetryDestination {
  id: string;
  organizationId: string;
  name: string;
  config: TelemetryDestinationConfig;
}

/** An enabled notification channel with its decrypted configuration. */
export interface DeliveryNotificationChannel {
  id: string;
  organizationId: string;
  name: string;
  /** Event types it wants; empty = all. */
  events: string[];
  config: NotificationChannelConfig;
}

/** Where background deliveries go (loaded with the control-plane snapshot). */
export interface DeliveryTargets {
  telemetryDestinations: DeliveryTelemetryDestination[];
  notificationChannels: DeliveryNotificationChannel[];
}

/** One finished delivery (delivered, or given up after its last attempt). */
export interface DeliveryReport {
  kind: "telemetry" | "notification";
  targetId: string;
  organizationId: string;
  delivered: boolean;
  attempts: number;
  /** How many spans (telemetry) or 1 (notification). */
  items: number;
  failure: string | null;
}

/** Counters of a {@link DeliveryDispatcher}. */
export interface DeliveryStats {
  queuedSpans: number;
  queuedNotifications: number;
  pendingDeliveries: number;
  delivered: number;
  /** Deliveries given up after `maxAttempts`. */
  failed: number;
  /** Spans dropped because the span queue was full (oldest first). */
  droppedSpans: number;
  /** Notifications dropped because their queue was full (oldest first). */
  droppedNotifications: number;
  /** Pending deliveries dropped because too many were waiting for a retry (oldest first). */
  droppedDeliveries: number;
}

/** Settings of {@link createDeliveryDispatcher}. */
export interface DeliveryDispatcherSettings {
  /** The current destinations and channels (kept by the caller; read on every flush). */
  targets: () => DeliveryTargets;
  /** Most spans waiting to be batched (default 10 000; the oldest are dropped and counted). */
  maxQueuedSpans?: number;
  /** Most notifications waiting (default 1000). */
  maxQueuedNotifications?: number;
  /** Most deliveries waiting for (a retry of) their attempt (default 1000). */
  maxPendingDeliveries?: number;
  /** Spans per telemetry export (default 200). */
  batchSize?: number;
  /** How often queues are batched and due deliveries run, in ms (default 1000). */
  flushIntervalMs?: number;
  /** Timeout of one HTTP delivery in ms (default 5000). */
  timeoutMs?: number;
  /** Attempts per delivery before giving up (default 5). */
  maxAttempts?: number;
  /** Base of the jittered exponential backoff between attempts (default 1000 ms). */
  retryBaseMs?: number;
  /** Longest wait between attempts, also caps a far end's `Retry-After` (default 60 000 ms). */
  maxRetryDelayMs?: number;
  /** Deliveries in flight at once (default 4). */
  concurrency?: number;
  /** OTLP `service.name` (default `ai-gateway`). */
  serviceName?: string;
  /**
   * The `fetch` of HTTP deliveries; default the outbound address policy's (`defaultOutboundFetch`
   * of `@gateway/provider-adapters`: each connection checked on its resolved address, no redirects).
   */
  fetch?: typeof fetch;
  /** Sends email channels; without it they are reported as not delivered. */
  mailer?: NotificationMailer | null;
  /** Told about every finished delivery (for `last_delivery_*` bookkeeping and logs). */
  onReport?: (report: DeliveryReport) => void;
  /** Told when items are dropped from a full queue. */
  onDropped?: (kind: "spans" | "notifications" | "deliveries", count: number) => void;
  clock?: () => number;
}

/**
 * Background delivery of usage traces to telemetry destinations (OTLP/HTTP JSON or signed
 * webhooks) and of notification events to notification channels. `enqueueUsage` and
 * `notify` are synchronous and never block: items go to bounded in-memory queues (full:
 * the oldest item is dropped and counted). A timer batches them per organization and
 * destination and delivers with retries (jittered exponential backoff, honouring a far
 * end's `Retry-After`), a few deliveries at a time.
 */
export interface DeliveryDispatcher {
  /** Queues the usage event's span for its organization's telemetry destinations. */
  enqueueUsage(event: UsageEventRecord): void;
  /** Queues a notification for the organization's channels that want its type. */
  notify(organizationId: string, event: NotificationEvent): void;
  /** Batches what is queued and runs every due delivery; resolves when they finished. */
  flush(): Promise<void>;
  stats(): DeliveryStats;
  /** Stops the timer, then delivers what is queued and pending (one more attempt each) within `timeoutMs`. */
  close(options?: { timeoutMs?: number }): Promise<void>;
}

interface Job {
  kind: "telemetry" | "notification";
  targetId: string;
  organizationId: string;
  attempt: number;
  notBefore: number;
  items: number;
  run: () => Promise<DeliveryOutcome>;
}

/** Creates a {@link DeliveryDispatcher}. */
export function createDeliveryDispatcher(settings: DeliveryDispatcherSettings): DeliveryDispatcher {
  const maxQueuedSpans = Math.max(1, settings.maxQueuedSpans ?? 10_000);
  const maxQueuedNotifications = Math.max(1, settings.maxQueuedNotifications ?? 1000);
  const maxPendingDeliveries = Math.max(1, settings.maxPendingDeliveries ?? 1000);
  const batchSize = Math.max(1, settings.batchSize ?? 200);
  const flushIntervalMs = Math.max(1, settings.flushIntervalMs ?? 1000);
  const timeoutMs = settings.timeoutMs ?? 5000;
  const maxAttempts = Math.max(1, settings.maxAttempts ?? 5);
  const retryBaseMs = Math.max(0, settings.retryBaseMs ?? 1000);
  const maxRetryDelayMs = Math.max(0, settings.maxRetryDelayMs ?? 60_000);
  const concurrency = Math.max(1, settings.concurrency ?? 4);
  const clock = settings.clock ?? Date.now;

  const spans: { organizationId: string; span: ExportSpan }[] = [];
  const notifications: { organizationId: string; event: NotificationEvent }[] = [];
  const jobs: Job[] = [];
  const running = new Set<Promise<void>>();
  const counters = { delivered: 0, failed: 0, droppedSpans: 0, droppedNotifications: 0, droppedDeliveries: 0 };
  let closed = false;
  let scheduled = false;

  const timer = setInterval(() => pump(), flushIntervalMs);
  timer.unref();

  function organizationsWithTelemetry(): Set<string> {
    return new Set(settings.targets().telemetryDestinations.map((destination) => destination.organizationId));
  }

  function addJob(job: Job): void {
    jobs.push(job);
    if (jobs.length > maxPendingDeliveries) {
      const dropped = jobs.length - maxPendingDeliveries;
      jobs.splice(0, dropped);
      counters.droppedDeliveries += dropped;
      settings.onDropped?.("deliveries", dropped);
    }
  }

  /** Turns queued items into delivery jobs (batched per organization and target). */
  function batchQueues(): void {
    if (spans.length === 0 && notifications.length === 0) return;
    const targets = settings.targets();
    const now = clock();
    const spansByOrganization = new Map<string, ExportSpan[]>();
    for (const item of spans.splice(0)) {
      const list = spansByOrganization.get(item.organizationId) ?? [];
      list.push(item.span);
      spansByOrganization.set(item.organizationId, list);
    }
    for (const destination of targets.telemetryDestinations) {
      const list = spansByOrganization.get(destination.organizationId);
      if (!list) continue;
      for (let start = 0; start < list.length; start += batchSize) {
        const batch = list.slice(start, start + batchSize);
        addJob({
          kind: "telemetry",
          targetId: destination.id,
          organizationId: destination.organizationId,
          attempt: 0,
          notBefore: now,
          items: batch.length,
          run: () => deliverTelemetry(destination.config, batch, { timeoutMs, serviceName: settings.serviceName ?? "ai-gateway", fetch: settings.fetch }),
        });
      }
    }
    for (const { organizationId, event } of notifications.splice(0)) {
      for (const channel of targets.notificationChannels) {
        if (channel.organizationId !== organizationId) continue;
        if (channel.events.length > 0 && !channel.events.includes(event.type)) continue;
        addJob({
          kind: "notification",
          targetId: channel.id,
          organizationId,
          attempt: 0,
          notBefore: now,
          items: 1,
          run: () => deliverNotification(channel.config, event, { timeoutMs, mailer: settings.mailer ?? null, fetch: settings.fetch }),
        });
      }
    }
  }

  function retryDelay(attempt: number, outcome: DeliveryOutcome): number {
    const exponential = retryBaseMs * 2 ** (attempt - 1);
    const jittered = exponential / 2 + Math.random() * (exponential / 2);
    const retryAfterMs = (outcome.retryAfterSeconds ?? 0) * 1000;
    return Math.min(maxRetryDelayMs, Math.max(jittered, retryAfterMs));
  }

  async function runJob(job: Job): Promise<void> {
    job.attempt += 1;
    let outcome: DeliveryOutcome;
    try {
      outcome = await job.run();
    } catch (error) {
      outcome = { delivered: false, status: null, failure: error instanceof Error ? error.message : "Delivery failed." };
    }
    if (outcome.delivered || job.attempt >= maxAttempts || (closed && !outcome.delivered)) {
      if (outcome.delivered) counters.delivered += 1;
      else counters.failed += 1;
      settings.onReport?.({
        kind: job.kind,
        targetId: job.targetId,
        organizationId: job.organizationId,
        delivered: outcome.delivered,
        attempts: job.attempt,
        items: job.items,
        failure: outcome.failure,
      });
      return;
    }
    job.notBefore = clock() + retryDelay(job.attempt, outcome);
    addJob(job);
  }

  /** Starts due jobs while there is room; `ignoreSchedule` runs pending retries now (closing). */
  function startDueJobs(ignoreSchedule: boolean): void {
    const now = clock();
    for (let index = 0; index < jobs.length && running.size < concurrency; ) {
      const job = jobs[index]!;
      if (!ignoreSchedule && job.notBefore > now) {
        index += 1;
        continue;
      }
      jobs.splice(index, 1);
      const promise: Promise<void> = runJob(job).finally(() => {
        running.delete(promise);
        if (!closed) pump();
      });
      running.add(promise);
    }
  }

  function pump(): void {
    batchQueues();
    startDueJobs(closed);
  }

  function schedulePump(): void {
    if (scheduled || closed) return;
    scheduled = true;
    setImmediate(() => {
      scheduled = false;
      pump();
    });
  }

  async function drain(ignoreSchedule: boolean, until: number): Promise<void> {
    for (;;) {
      batchQueues();
      startDueJobs(ignoreSchedule);
      const due = jobs.some((job) => ignoreSchedule || job.notBefore <= clock());
      if (running.size === 0 && !due) return;
      if (clock() >= until) return;
      const remaining = Math.max(1, until - clock());
      await Promise.race([Promise.race(running), new Promise((resolve) => setTimeout(resolve, Math.min(remaining, 50)).unref())]);
    }
  }

  return {
    enqueueUsage(event) {
      if (closed || event.organizationId === null) return;
      if (!organizationsWithTelemetry().has(event.organizationId)) return;
      spans.push({ organizationId: event.organizationId, span: usageEventToSpan(event) });
      if (spans.length > maxQueuedSpans) {
        const dropped = spans.length - maxQueuedSpans;
        spans.splice(0, dropped);
        counters.droppedSpans += dropped;
        settings.onDropped?.("spans", dropped);
      }
      if (spans.length >= batchSize) schedulePump();
    },
    notify(organizationId, event) {
      if (closed) return;
      notifications.push({ organizationId, event });
      if (notifications.length > maxQueuedNotifications) {
        const dropped = notifications.length - maxQueuedNotifications;
        notifications.splice(0, dropped);
        counters.droppedNotifications += dropped;
        settings.onDropped?.("notifications", dropped);
      }
      schedulePump();
    },
    flush() {
      return drain(false, Number.POSITIVE_INFINITY);
    },
    stats() {
      return {
        queuedSpans: spans.length,
        queuedNotifications: notifications.length,
        pendingDeliveries: jobs.length + running.size,
        ...counters,
      };
    },
    async close(options = {}) {
      if (closed) return;
      clearInterval(timer);
      closed = true;
      await drain(true, clock() + (options.timeoutMs ?? 5000));
    },
  };
}

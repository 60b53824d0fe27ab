import type { AdmissionController, BudgetThresholdCrossing } from "@gateway/budget";
import type { AffinityStore, LatencyTracker } from "@gateway/policy-engine";
import type { AdapterRegistry } from "../runtime/adapter-registry.js";
import type { CompiledSnapshot } from "../runtime/compile-snapshot.js";
import type { UsageEventRecord } from "@gateway/contracts";
import type { InferenceCallObserver } from "./inference-call-observer.js";
import type { ResponseStore } from "../runtime/response-store.js";

/** What the pipeline's call functions need; the apps build it once at start. */
export interface PipelineDependencies {
  /** The in-memory control-plane snapshot (a {@link SnapshotHolder}). */
  snapshots: { current(): CompiledSnapshot };
  /**
   * Where usage events go (a {@link UsageQueue}); `enqueue` must not block. With `record`, an
   * inference call's event is also handed over synchronously when the call ends, BEFORE its answer
   * is written (a durable journal needs it then; `enqueue` follows once the admission is settled,
   * which can take a Redis round trip). `record` may give the event an `id`: the event passed to
   * `enqueue` keeps it, and is passed to `record` again first when settling changed it.
   */
  usage: { enqueue(event: UsageEventRecord): void; record?(event: UsageEventRecord): void };
  adapters: AdapterRegistry;
  /** Rate limits and budgets (`createAdmissionController` over a memory or Redis store). */
  admission: AdmissionController;
  /** Session affinity of routes (`createMemoryAffinityStore`); without it affinity is off. */
  affinityStore?: AffinityStore;
  /** Latency observations for `least-latency` routes (`createLatencyTracker`). */
  latencyTracker?: LatencyTracker;
  /** Told when a settlement crosses a budget threshold first (once per budget and period). */
  onBudgetThreshold?: (crossing: BudgetThresholdCrossing) => void;
  /**
   * The gateway's deadline per request, until its answer starts (408 `request_timeout` when it
   * passes). Upstream timeouts (JSON total, stream first byte / idle / duration) are the
   * transport's, per connection.
   */
  requestTimeoutMs: number;
  /** Told about unexpected failures (rendered as a generic 500), for logs. */
  onInternalError?: (error: unknown, requestId: string) => void;
  /** Told about each call's facts (metrics, traces, logs); absent: no observing work at all. */
  observer?: InferenceCallObserver;
  /**
   * Stored Responses (`store`, `previous_response_id`, `GET`/`DELETE /v1/responses/{id}`); absent
   * or null: nothing is stored and those are refused.
   */
  responseStore?: ResponseStore | null;
}

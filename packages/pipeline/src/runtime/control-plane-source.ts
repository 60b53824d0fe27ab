import type { ControlPlaneSnapshot } from "@gateway/contracts";
import type { DeliveryTargets } from "../delivery/create-delivery-dispatcher.js";

/**
 * Where the control-plane snapshot comes from (implemented by `@gateway/db`, wired by the
 * apps). The pipeline never reads storage on the request path: it loads a snapshot, keeps
 * it in memory and polls `readVersion` (cheap) to notice changes made by any process.
 */
export interface ControlPlaneSource {
  /** Loads a full snapshot. */
  load(): Promise<ControlPlaneSnapshot>;
  /** Reads the current version only; must be cheap (one small query). */
  readVersion(): Promise<string>;
  /**
   * Optional push notifications (for example Redis pub/sub, PostgreSQL LISTEN). `onChange`
   * asks the holder to reload now (skipped when `version` is given and already in service);
   * polling stays as the safety net. Returns a function that unsubscribes.
   */
  subscribe?(onChange: (version?: string | null) => void): (() => void | Promise<void>) | Promise<() => void | Promise<void>>;
  /**
   * Optional: the enabled telemetry destinations and notification channels with decrypted
   * configuration, for background delivery. Loaded at start, after every snapshot reload
   * and every `GATEWAY_DELIVERY_REFRESH_MS` (their tables do not change the version).
   */
  loadDeliveryTargets?(): Promise<DeliveryTargets>;
}

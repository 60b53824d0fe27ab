import type {
  ControlPlaneChange,
  ControlPlaneConfiguration,
  ControlPlaneConfigurationPart,
  ControlPlaneSnapshot,
  SnapshotApiKey,
  SnapshotMcpToken,
} from "@gateway/contracts";
import type { DeliveryTargets } from "../delivery/create-delivery-dispatcher.js";

/**
 * What an announcement of a control-plane change says: the new version and, when the
 * announcer knew them, the changes that led to it (oldest first). A bare string is a version
 * alone; null or nothing: "something changed, read the version".
 */
export type ControlPlaneAnnouncement = string | null | undefined | { version: string | null; changes?: readonly ControlPlaneChange[] };

/**
 * Where the control-plane snapshot comes from (implemented by `@gateway/db`, wired by the
 * apps). The pipeline never reads storage on the request path: it loads a snapshot, keeps
 * it in memory and polls `readVersion` (cheap) to notice changes made by any process.
 */
export interface ControlPlaneSource {
  /** Loads a full snapshot (sources without `deltas`; otherwise unused by the snapshot holder). */
  load(): Promise<ControlPlaneSnapshot>;
  /** Reads the current version only; must be cheap (one small query). */
  readVersion(): Promise<string>;
  /**
   * Optional: reads what changed, so that a change is applied as a delta (a revoked key is one
   * map deletion) and a full reload loads the keys page by page. Versions must then be
   * integers that grow by one per logged change.
   */
  deltas?: ControlPlaneDeltaSource;
  /**
   * Optional push notifications (for example Redis pub/sub, PostgreSQL LISTEN). `onChange`
   * asks the holder to catch up now (skipped when the announced version is already in service
   * or on its way); polling stays as the safety net. Returns a function that unsubscribes.
   */
  subscribe?(onChange: (announcement?: ControlPlaneAnnouncement) => void): (() => void | Promise<void>) | Promise<() => void | Promise<void>>;
  /**
   * Optional: the enabled telemetry destinations and notification channels with decrypted
   * configuration, for background delivery. Loaded at start, after every snapshot reload
   * and every `GATEWAY_DELIVERY_REFRESH_MS` (their tables do not change the version).
   */
  loadDeliveryTargets?(): Promise<DeliveryTargets>;
}

/** The reads behind deltas and paged full reloads (see `ControlPlaneSource.deltas`). */
export interface ControlPlaneDeltaSource {
  /** The logged changes after `version`, oldest first (at most `limit`). */
  readChanges(afterVersion: string, limit: number): Promise<readonly ControlPlaneChange[]>;
  /** The configuration (everything but keys and MCP tokens), its version read first. */
  loadConfiguration(): Promise<ControlPlaneConfiguration>;
  /** Some configuration tables, for a change that named them. */
  loadConfigurationParts(parts: readonly ControlPlaneConfigurationPart[]): Promise<Partial<Omit<ControlPlaneConfiguration, "version">>>;
  /** Active keys: a page in id order after `afterId` (null: the first), or the rows of some ids. */
  loadApiKeys(selection: { afterId: string | null; limit: number } | { ids: readonly string[] }): Promise<readonly SnapshotApiKey[]>;
  /** Active MCP tokens, selected like `loadApiKeys`. */
  loadMcpTokens(selection: { afterId: string | null; limit: number } | { ids: readonly string[] }): Promise<readonly SnapshotMcpToken[]>;
}

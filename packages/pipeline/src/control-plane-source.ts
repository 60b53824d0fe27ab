import type { ControlPlaneSnapshot } from "./control-plane-snapshot.js";

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
   * Optional push notifications (for example Redis pub/sub). `onChange` asks the holder to
   * reload now; polling stays as the safety net. Returns a function that unsubscribes.
   */
  subscribe?(onChange: () => void): (() => void | Promise<void>) | Promise<() => void | Promise<void>>;
}

import { type CompiledSnapshot, compileSnapshot } from "./compile-snapshot.js";
import type { ControlPlaneSnapshot } from "@gateway/contracts";
import type { ControlPlaneSource } from "./control-plane-source.js";

/** What caused a snapshot reload. */
export type SnapshotReloadReason = "start" | "poll" | "push" | "refresh";

/** Settings of {@link createSnapshotHolder}. */
export interface SnapshotHolderSettings {
  source: ControlPlaneSource;
  /** How often the version is read, in ms (default 300; keep it under 1000). */
  pollIntervalMs?: number;
  /** Builds the in-memory indexes (default {@link compileSnapshot}). */
  compile?: (snapshot: ControlPlaneSnapshot) => CompiledSnapshot;
  /** Told about failed polls/reloads; the previous snapshot stays in service meanwhile. */
  onError?: (error: unknown) => void;
  /**
   * Told after a new snapshot replaced the previous one, with what caused it: `start`, `poll`
   * (this instance noticed the version change: announce it to the others), `push` (a
   * notification from `source.subscribe`) or `refresh` (an explicit `refresh()`).
   */
  onReload?: (snapshot: CompiledSnapshot, reason: SnapshotReloadReason) => void;
  /**
   * Told as soon as a version check (poll or `refresh()`) reads a version other than the one
   * in service, before the reload: the moment to announce it to other instances, so that
   * they load in parallel with this one.
   */
  onVersionChange?: (version: string) => void;
}

/**
 * Keeps the current compiled snapshot in memory. It polls the source's version every
 * `pollIntervalMs` and reloads on change, so that a change made by any process (a key
 * revoked through the database) is in effect within one poll plus one load. Push
 * notifications (`source.subscribe`) trigger a reload at once; polling stays the safety net.
 */
export interface SnapshotHolder {
  /** Loads the first snapshot and starts polling. Throws when the first load fails. */
  start(): Promise<void>;
  /** The snapshot in service. Throws before `start` resolved. */
  current(): CompiledSnapshot;
  /** Reads the version now and reloads when it changed. Resolves true when it reloaded. */
  refresh(): Promise<boolean>;
  /** Stops polling and unsubscribes. */
  stop(): Promise<void>;
}

/** Creates a {@link SnapshotHolder}. */
export function createSnapshotHolder(settings: SnapshotHolderSettings): SnapshotHolder {
  const pollIntervalMs = settings.pollIntervalMs ?? 300;
  const compile = settings.compile ?? compileSnapshot;
  let compiled: CompiledSnapshot | undefined;
  let timer: NodeJS.Timeout | undefined;
  let unsubscribe: (() => void | Promise<void>) | undefined;
  let inFlight: Promise<boolean> | undefined;
  let reloadRequested = false;
  let stopped = false;

  async function reload(reason: SnapshotReloadReason): Promise<void> {
    const snapshot = await settings.source.load();
    compiled = compile(snapshot);
    settings.onReload?.(compiled, reason);
  }

  async function check(force: boolean, reason: SnapshotReloadReason): Promise<boolean> {
    if (force || compiled === undefined) {
      await reload(compiled === undefined ? "start" : reason);
      return true;
    }
    const version = await settings.source.readVersion();
    if (version === compiled.version) return false;
    settings.onVersionChange?.(version);
    await reload(reason);
    return true;
  }

  /** One check at a time; a push that arrives during a check forces one more reload after it. */
  function refresh(force: boolean, reason: SnapshotReloadReason): Promise<boolean> {
    if (inFlight) {
      if (force) reloadRequested = true;
      return inFlight;
    }
    inFlight = check(force, reason).finally(() => {
      inFlight = undefined;
      if (reloadRequested && !stopped) {
        reloadRequested = false;
        void refresh(true, "push").catch((error: unknown) => settings.onError?.(error));
      }
    });
    return inFlight;
  }

  function poll(): void {
    refresh(false, "poll").catch((error: unknown) => settings.onError?.(error));
  }

  return {
    async start() {
      stopped = false;
      await refresh(true, "start");
      timer = setInterval(poll, pollIntervalMs);
      timer.unref();
      if (settings.source.subscribe) {
        unsubscribe = await settings.source.subscribe((version) => {
          // An announcement of the version already in service (our own, or seen by our poll) needs no reload.
          if (typeof version === "string" && compiled !== undefined && compiled.version === version) return;
          refresh(true, "push").catch((error: unknown) => settings.onError?.(error));
        });
      }
    },
    current() {
      if (compiled === undefined) throw new Error("The control-plane snapshot is not loaded yet; call start() first.");
      return compiled;
    },
    refresh: () => refresh(false, "refresh"),
    async stop() {
      stopped = true;
      if (timer) clearInterval(timer);
      timer = undefined;
      await unsubscribe?.();
      unsubscribe = undefined;
      await inFlight?.catch(() => undefined);
    },
  };
}

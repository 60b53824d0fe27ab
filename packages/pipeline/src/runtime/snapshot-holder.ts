import type { ControlPlaneChange, ControlPlaneConfiguration, ControlPlaneConfigurationPart, ControlPlaneSnapshot } from "@gateway/contracts";
import { ApiKeyStore } from "./api-key-store.js";
import { type CompiledSnapshot, compileSnapshot } from "./compile-snapshot.js";
import type { ControlPlaneAnnouncement, ControlPlaneSource } from "./control-plane-source.js";

/** What caused a snapshot change: `periodic` is the safety-net full reload. */
export type SnapshotReloadReason = "start" | "poll" | "push" | "refresh" | "periodic";

/** How a new snapshot came into service. */
export interface SnapshotReloadDetails {
  /** `full`: everything re-read (start, a version gap, periodic); `delta`: only what the changes named. */
  mode: "full" | "delta";
  /** The changes applied (deltas), oldest first; empty for a full reload. */
  changes: readonly ControlPlaneChange[];
}

/** Settings of {@link createSnapshotHolder}. */
export interface SnapshotHolderSettings {
  source: ControlPlaneSource;
  /** How often the version is read, in ms (default 300; keep it under 1000). */
  pollIntervalMs?: number;
  /**
   * How often everything is re-read although no gap was seen, in ms (default 600000; 0: never).
   * Only for sources with deltas: without them every change is a full reload anyway.
   */
  fullReloadIntervalMs?: number;
  /** Keys per page of a full reload (default 5000): the event loop is free between pages. */
  keyPageSize?: number;
  /** Builds the configuration's indexes around the key store (default {@link compileSnapshot}). */
  compile?: (snapshot: ControlPlaneSnapshot | ControlPlaneConfiguration, keys: ApiKeyStore, previous?: CompiledSnapshot) => CompiledSnapshot;
  /** Told about failed polls/reloads; the previous snapshot stays in service meanwhile. */
  onError?: (error: unknown) => void;
  /**
   * Told after a new snapshot replaced the previous one, with what caused it: `start`, `poll`
   * (this instance noticed the version change: announce it to the others), `push` (a
   * notification from `source.subscribe`), `refresh` (an explicit `refresh()`) or `periodic`,
   * and whether it was a full reload or a delta.
   */
  onReload?: (snapshot: CompiledSnapshot, reason: SnapshotReloadReason, details: SnapshotReloadDetails) => void;
  /**
   * Told as soon as a version check (poll or `refresh()`) reads a version other than the one
   * in service, before applying it, with the logged changes when the source has deltas: the
   * moment to announce it to other instances, so that they catch up in parallel with this one.
   */
  onVersionChange?: (version: string, changes?: readonly ControlPlaneChange[]) => void;
}

/**
 * Keeps the current compiled snapshot in memory. It polls the source's version every
 * `pollIntervalMs`; push notifications (`source.subscribe`) make it catch up at once. With a
 * source that has `deltas`, a change is applied as what it names: changed keys are read by id
 * and put into (or removed from) the key maps in place; a change of configuration tables
 * re-reads those tables and rebuilds the configuration's indexes, never the key maps. A gap in
 * the logged versions (the log was pruned, a version bumped by hand), a table it cannot apply,
 * and a timer (`fullReloadIntervalMs`) make it reload everything, in place and page by page so
 * that the event loop is never held for long. Each version is applied once however many paths
 * announce it.
 */
export interface SnapshotHolder {
  /** Loads the first snapshot and starts polling. Throws when the first load fails. */
  start(): Promise<void>;
  /** The snapshot in service. Throws before `start` resolved. */
  current(): CompiledSnapshot;
  /** Reads the version now and catches up when it changed. Resolves true when it changed the snapshot. */
  refresh(): Promise<boolean>;
  /** Reloads everything now (the safety net). */
  reload(): Promise<void>;
  /** Stops polling and unsubscribes. */
  stop(): Promise<void>;
}

/** Changes read from the log per catch-up (what the log keeps); further behind reloads whole. */
const changesPerRead = 1000;

/** Configuration tables and the snapshot parts they fill. */
const configurationTables: Readonly<Record<string, ControlPlaneConfigurationPart>> = {
  organizations: "organizations",
  projects: "projects",
  connections: "connections",
  routes: "routes",
  policies: "policies",
  budgets: "budgets",
  rate_limits: "rateLimits",
  mcp_servers: "mcpServers",
};

/** Tables that bump the version but feed nothing the snapshot holds. */
const tablesWithoutSnapshotData = new Set(["teams", "team_members"]);

const yieldToEventLoop = () => new Promise<void>((resolve) => setImmediate(resolve));

interface QueuedPass {
  reason: SnapshotReloadReason;
  full: boolean;
  promise: Promise<boolean>;
  resolve: (changed: boolean) => void;
  reject: (error: unknown) => void;
}

/** Creates a {@link SnapshotHolder}. */
export function createSnapshotHolder(settings: SnapshotHolderSettings): SnapshotHolder {
  const pollIntervalMs = settings.pollIntervalMs ?? 300;
  const fullReloadIntervalMs = settings.fullReloadIntervalMs ?? 600_000;
  const keyPageSize = Math.max(1, settings.keyPageSize ?? 5000);
  const compile = settings.compile ?? compileSnapshot;
  const { source } = settings;
  const deltas = source.deltas;
  const store = new ApiKeyStore();
  let compiled: CompiledSnapshot | undefined;
  let configuration: ControlPlaneConfiguration | undefined;
  let timer: NodeJS.Timeout | undefined;
  let fullReloadTimer: NodeJS.Timeout | undefined;
  let unsubscribe: (() => void | Promise<void>) | undefined;
  let inFlight: Promise<boolean> | undefined;
  let queued: QueuedPass | undefined;
  let stopped = false;
  /** The version the running pass catches up to (announcements up to it need nothing more). */
  let catchingUpTo: number | undefined;
  let fullReloadRunning = false;
  /** Changes told by announcements, by version, ahead of the one in service. */
  const announced = new Map<number, ControlPlaneChange>();

  const report = (error: unknown) => settings.onError?.(error);

  function servedVersion(): number | undefined {
    return compiled === undefined ? undefined : integerVersion(compiled.version);
  }

  async function fullReload(reason: SnapshotReloadReason): Promise<void> {
    fullReloadRunning = true;
    const reload = store.beginReload();
    try {
      let next: ControlPlaneConfiguration;
      if (deltas === undefined) {
        const { apiKeys, mcpTokens, ...loaded } = await source.load();
        reload.putApiKeys(apiKeys);
        reload.putMcpTokens(mcpTokens);
        next = loaded;
      } else {
        next = await deltas.loadConfiguration();
        for (let afterId: string | null = null; ; ) {
          const page = await deltas.loadApiKeys({ afterId, limit: keyPageSize });
          reload.putApiKeys(page);
          if (page.length < keyPageSize) break;
          afterId = page[page.length - 1]!.id;
          await yieldToEventLoop();
        }
        for (let afterId: string | null = null; ; ) {
          const page = await deltas.loadMcpTokens({ afterId, limit: keyPageSize });
          reload.putMcpTokens(page);
          if (page.length < keyPageSize) break;
          afterId = page[page.length - 1]!.id;
          await yieldToEventLoop();
        }
      }
      await reload.finish(yieldToEventLoop);
      configuration = next;
      compiled = compile(next, store);
    } catch (error) {
      reload.abandon();
      throw error;
    } finally {
      fullReloadRunning = false;
    }
    forgetAnnouncedUpTo(servedVersion());
    settings.onReload?.(compiled, reason, { mode: "full", changes: [] });
  }

  /** The announced changes that continue the version in service without a gap. */
  function announcedRun(): ControlPlaneChange[] {
    const served = servedVersion();
    const run: ControlPlaneChange[] = [];
    if (served === undefined) return run;
    for (let version = served + 1; announced.has(version); version += 1) run.push(announced.get(version)!);
    return run;
  }

  function forgetAnnouncedUpTo(version: number | undefined): void {
    for (const known of announced.keys()) if (version === undefined || known <= version) announced.delete(known);
  }

  /**
   * Applies changes that follow the version in service: keys and MCP tokens by id (in place),
   * configuration tables re-read and their indexes rebuilt. Resolves false when the changes
   * need a full reload instead.
   */
  async function applyChanges(changes: readonly ControlPlaneChange[], reason: SnapshotReloadReason): Promise<boolean> {
    const keyIds = new Set<string>();
    const tokenIds = new Set<string>();
    const parts = new Set<ControlPlaneConfigurationPart>();
    for (const change of changes) {
      if (change.table === "api_keys" || change.table === "mcp_tokens") {
        if (change.ids === null) return false;
        for (const id of change.ids) (change.table === "api_keys" ? keyIds : tokenIds).add(id);
      } else if (configurationTables[change.table] !== undefined) {
        parts.add(configurationTables[change.table]!);
      } else if (!tablesWithoutSnapshotData.has(change.table)) {
        return false;
      }
    }
    const version = changes[changes.length - 1]!.version;
    const [keys, tokens, rows] = await Promise.all([
      keyIds.size === 0 ? [] : deltas!.loadApiKeys({ ids: [...keyIds] }),
      tokenIds.size === 0 ? [] : deltas!.loadMcpTokens({ ids: [...tokenIds] }),
      parts.size === 0 ? {} : deltas!.loadConfigurationParts([...parts]),
    ]);
    // From here on synchronous: a request sees the version before or after, never half of it.
    store.applyApiKeys(keyIds, keys);
    store.applyMcpTokens(tokenIds, tokens);
    configuration = { ...configuration!, ...rows, version };
    compiled = parts.size === 0 ? { ...compiled!, version, snapshot: configuration } : compile(configuration, store, compiled!);
    forgetAnnouncedUpTo(Number(version));
    settings.onReload?.(compiled, reason, { mode: "delta", changes });
    return true;
  }

  async function pass(reason: SnapshotReloadReason, full: boolean): Promise<boolean> {
    if (compiled === undefined || full) {
      await fullReload(compiled === undefined ? "start" : reason);
      return true;
    }
    const served = servedVersion();
    if (deltas === undefined || served === undefined) {
      const version = await source.readVersion();
      if (version === compiled.version) return false;
      if (reason === "poll" || reason === "refresh") settings.onVersionChange?.(version);
      await fullReload(reason);
      return true;
    }
    // An announcement that named the next changes saves both reads.
    let changes: readonly ControlPlaneChange[] = announcedRun();
    let target: number;
    if (changes.length > 0) {
      target = Number(changes[changes.length - 1]!.version);
    } else {
      const version = await source.readVersion();
      target = integerVersion(version) ?? Number.NaN;
      if (version === compiled.version) return false;
      if (!(target > served)) {
        // Not an integer ahead of ours (a restored database?): start over.
        await fullReload(reason);
        return true;
      }
      catchingUpTo = target;
      changes = followingWithoutGap(served, await deltas.readChanges(compiled.version, changesPerRead));
      if (reason === "poll" || reason === "refresh") settings.onVersionChange?.(version, changes);
    }
    catchingUpTo = Math.max(catchingUpTo ?? 0, target);
    const reached = changes.length === 0 ? served : Number(changes[changes.length - 1]!.version);
    if (reached < target || !(await applyChanges(changes, reason))) await fullReload(reason);
    return true;
  }

  function start(reason: SnapshotReloadReason, full: boolean): Promise<boolean> {
    const running = pass(reason, full).finally(() => {
      inFlight = undefined;
      catchingUpTo = undefined;
      const next = queued;
      queued = undefined;
      if (next === undefined) return;
      if (stopped) next.resolve(false);
      else start(next.reason, next.full).then(next.resolve, next.reject);
    });
    inFlight = running;
    return running;
  }

  /** One pass at a time; a request during a pass runs one more pass after it (requests coalesce). */
  function request(reason: SnapshotReloadReason, full = false): Promise<boolean> {
    if (inFlight === undefined) return start(reason, full);
    if (queued === undefined) {
      let resolve!: (changed: boolean) => void;
      let reject!: (error: unknown) => void;
      const promise = new Promise<boolean>((onResolve, onReject) => {
        resolve = onResolve;
        reject = onReject;
      });
      queued = { reason, full, promise, resolve, reject };
    } else {
      queued.full ||= full;
    }
    return queued.promise;
  }

  /** An announcement: skipped when its version is in service or on its way; otherwise catch up. */
  function receive(announcement: ControlPlaneAnnouncement): void {
    const version = typeof announcement === "string" ? announcement : (announcement?.version ?? null);
    const changes = typeof announcement === "object" && announcement !== null ? (announcement.changes ?? []) : [];
    const announcedVersion = version === null ? undefined : integerVersion(version);
    const served = servedVersion();
    if (version !== null && compiled !== undefined && version === compiled.version) return;
    if (announcedVersion !== undefined && served !== undefined) {
      if (announcedVersion <= served || (catchingUpTo !== undefined && announcedVersion <= catchingUpTo)) return;
      for (const change of changes) {
        const changeVersion = integerVersion(change.version);
        if (changeVersion !== undefined && changeVersion > served && announced.size < changesPerRead) announced.set(changeVersion, change);
      }
      // A key revoked during a long full reload is removed at once (the reload's older rows do not bring it back).
      if (fullReloadRunning && deltas !== undefined) applyKeyChangesNow(changes);
    }
    request("push").catch(report);
  }

  function applyKeyChangesNow(changes: readonly ControlPlaneChange[]): void {
    const keyIds = changes.flatMap((change) => (change.table === "api_keys" && change.ids !== null ? change.ids : []));
    if (keyIds.length === 0) return;
    deltas!
      .loadApiKeys({ ids: keyIds })
      .then((rows) => store.applyApiKeys(keyIds, rows))
      .catch(report);
  }

  return {
    async start() {
      stopped = false;
      await request("start", true);
      timer = setInterval(() => void request("poll").catch(report), pollIntervalMs);
      timer.unref();
      if (deltas !== undefined && fullReloadIntervalMs > 0) {
        fullReloadTimer = setInterval(() => void request("periodic", true).catch(report), fullReloadIntervalMs);
        fullReloadTimer.unref();
      }
      if (source.subscribe) unsubscribe = await source.subscribe(receive);
    },
    current() {
      if (compiled === undefined) throw new Error("The control-plane snapshot is not loaded yet; call start() first.");
      return compiled;
    },
    refresh: () => request("refresh"),
    reload: async () => void (await request("refresh", true)),
    async stop() {
      stopped = true;
      if (timer) clearInterval(timer);
      if (fullReloadTimer) clearInterval(fullReloadTimer);
      timer = undefined;
      fullReloadTimer = undefined;
      await unsubscribe?.();
      unsubscribe = undefined;
      await inFlight?.catch(() => undefined);
    },
  };
}

/** A version as an integer, or undefined when it is not one (test sources may use any text). */
function integerVersion(version: string): number | undefined {
  return /^\d+$/.test(version) ? Number(version) : undefined;
}

/** The changes that follow `version` one by one (stops at the first gap). */
function followingWithoutGap(version: number, changes: readonly ControlPlaneChange[]): ControlPlaneChange[] {
  const run: ControlPlaneChange[] = [];
  let expected = version + 1;
  for (const change of changes) {
    if (Number(change.version) !== expected) break;
    run.push(change);
    expected += 1;
  }
  return run;
}

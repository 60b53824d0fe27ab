import type { ControlPlaneChange as LoggedControlPlaneChange } from "@gateway/contracts";
import { type DatabaseClient, type SqlClient, readControlPlaneChanges, readControlPlaneVersion } from "@gateway/db";
import { announceControlPlaneChange } from "@gateway/pipeline";
import type { Redis } from "ioredis";
import type { DashboardLogger } from "../dashboard-logger.js";

/** What the in-process gateway hook receives after a control-plane write. */
export interface ControlPlaneChange {
  /** The audited action (`api_key.revoked`, `policy.updated`, ...). */
  action: string;
  /** The control-plane version read right after the write (null when that read failed). */
  version: string | null;
}

/**
 * Audit actions that change what the gateway's control-plane snapshot holds (keys, projects,
 * connections, routes, policies, budgets, rate limits, teams and their members, organization
 * members, the organization, MCP servers and MCP tokens). Connection tests and everything else
 * (sessions, invitations still pending, telemetry, notification channels) are not announced.
 */
const controlPlaneActionPrefixes = [
  "api_key.",
  "project.",
  "connection.",
  "route.",
  "policy.",
  "budget.",
  "rate_limit.",
  "team.",
  "member.",
  "organization.",
  "mcp_server.",
  "mcp_token.",
] as const;

/** Whether an audited action is a control-plane write the gateways must hear about. */
export function isControlPlaneAction(action: string): boolean {
  if (action.endsWith(".tested")) return false;
  if (action === "invitation.accepted") return true;
  return controlPlaneActionPrefixes.some((prefix) => action.startsWith(prefix));
}

/** Changes one announcement lists at most (gateways further behind read the log). */
const maxListedChanges = 20;

/** Settings of {@link createControlPlaneAnnouncer}. */
export interface ControlPlaneAnnouncerSettings {
  database: DatabaseClient & SqlClient;
  /** Publishes on `<keyPrefix>control-plane` (null: no Redis announcements). */
  redis: Redis | null;
  keyPrefix: string;
  /** The in-process gateway's snapshot refresh (`pnpm start`); awaited up to `hookTimeoutMs`. */
  onControlPlaneChange?: ((change: ControlPlaneChange) => void | Promise<void>) | null;
  /** Longest a write's answer waits for `onControlPlaneChange` (default 1000 ms). */
  hookTimeoutMs?: number;
  logger: DashboardLogger;
}

/**
 * Tells the gateways about a control-plane write that committed. Best effort: the Redis
 * announcement (with the new version and the logged changes that led to it, read from the
 * database, so that gateways apply them without reading the log) is fire and forget; the
 * in-process hook is awaited at most `hookTimeoutMs` so that, in one process, the gateway
 * already refuses a revoked key when the DELETE answers. Never throws; failures are logged
 * (the gateways' version poll still picks the change up).
 */
export function createControlPlaneAnnouncer(settings: ControlPlaneAnnouncerSettings): (action: string) => Promise<void> {
  const hookTimeoutMs = settings.hookTimeoutMs ?? 1000;
  const { logger } = settings;
  const failed = (what: string) => (error: unknown) =>
    logger.warn(`${what} failed; the gateways' version poll will pick the change up.`, { error: error instanceof Error ? error.message : String(error) });

  /** The last version announced: the next announcement lists the changes after it (a few at most). */
  let lastAnnounced: number | null = null;
  const changesUpTo = async (version: string): Promise<LoggedControlPlaneChange[]> => {
    const target = Number(version);
    const after = lastAnnounced !== null && lastAnnounced < target && target - lastAnnounced <= maxListedChanges ? lastAnnounced : target - 1;
    lastAnnounced = Math.max(lastAnnounced ?? 0, target);
    const changes = await readControlPlaneChanges(settings.database, { afterVersion: String(after), limit: maxListedChanges }).catch(() => []);
    return changes.filter((change) => Number(change.version) <= target);
  };

  return async (action) => {
    if (!isControlPlaneAction(action)) return;
    if (settings.redis === null && !settings.onControlPlaneChange) return;
    const version = readControlPlaneVersion(settings.database).catch((error: unknown) => {
      failed("Reading the control-plane version")(error);
      return null;
    });
    if (settings.redis !== null) {
      const redis = settings.redis;
      void version
        .then(async (known) => {
          const changes = known === null ? [] : await changesUpTo(known);
          await announceControlPlaneChange({ redis, keyPrefix: settings.keyPrefix, version: known, changes });
        })
        .catch(failed("Announcing the control-plane change through Redis"));
    }
    const hook = settings.onControlPlaneChange;
    if (!hook) return;
    let timer: NodeJS.Timeout | undefined;
    const timedOut = new Promise<void>((resolve) => {
      timer = setTimeout(() => {
        logger.warn("The in-process gateway's snapshot refresh is taking long; answering without waiting for it.", { action });
        resolve();
      }, hookTimeoutMs);
      timer.unref();
    });
    const refreshed = version
      .then((known) => hook({ action, version: known }))
      .catch(failed("Refreshing the in-process gateway's snapshot"));
    await Promise.race([refreshed, timedOut]);
    clearTimeout(timer);
  };
}

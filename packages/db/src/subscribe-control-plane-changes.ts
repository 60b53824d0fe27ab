import type { ControlPlaneChange } from "@gateway/contracts";
import pg from "pg";
import type { SqlClient } from "./sql-client.js";

/**
 * The PostgreSQL channel the control-plane triggers notify, with the payload
 * `{"schema","version","table","ids"}` (ids null when the statement changed more than 100 rows).
 */
export const controlPlaneNotificationChannel = "gateway_control_plane";

/** Where a PostgreSQL database opened by `createDatabase` listens (kept out of the object: the URL may hold a password). */
interface ListenConnection {
  connectionString: string;
  schema: string;
}

const listenConnections = new WeakMap<object, ListenConnection>();

/** Called by `createDatabase` and `openDataPlaneDatabase` for PostgreSQL databases (internal; not exported from the package). */
export function rememberListenConnection(database: object, connection: ListenConnection): void {
  listenConnections.set(database, connection);
}

/** Options of {@link subscribeControlPlaneChanges}. */
export interface SubscribeControlPlaneChangesOptions {
  /** Told about connection failures (then it reconnects) and failed version reads. Never secrets. */
  onError?: (error: unknown) => void;
  /** First reconnect delay in ms (default 250); doubles per failure up to `maxReconnectDelayMs`. */
  minReconnectDelayMs?: number;
  /** Longest reconnect delay in ms (default 10000). */
  maxReconnectDelayMs?: number;
}

/**
 * What a notification told: the new version and, when the payload listed them, the one change
 * that produced it (table and ids). Without `change`, read the change log.
 */
export interface ControlPlaneNotification {
  version: string;
  change?: ControlPlaneChange;
}

/** Stops listening and closes the dedicated connection. */
export type UnsubscribeControlPlaneChanges = () => Promise<void>;

/**
 * Push notifications of control-plane changes on PostgreSQL: a dedicated `pg` connection runs
 * `LISTEN gateway_control_plane` (the version triggers `NOTIFY` it on every control-plane
 * write, raw SQL from other processes included). A notification names its schema, version,
 * table and ids: one of this schema with a version above the last one seen calls
 * `onChange(version, { version, change })` at once (no read); other schemas' (NOTIFY is
 * database-wide) are ignored. A payload without a version (older triggers) costs one version
 * read on the same connection, and `onChange` runs when it moved. A lost connection
 * is re-established with exponential backoff (`onError` is told); after a reconnect,
 * `onChange` runs when the version moved meanwhile (notifications are not queued while
 * disconnected). Resolves once the first `LISTEN` succeeded or failed (a failure keeps
 * retrying in the background); never rejects. SQLite has no LISTEN: resolves a no-op (polling
 * only). Call the returned function before closing the database.
 */
export async function subscribeControlPlaneChanges(
  db: SqlClient,
  onChange: (version: string, notification: ControlPlaneNotification) => void,
  options: SubscribeControlPlaneChangesOptions = {},
): Promise<UnsubscribeControlPlaneChanges> {
  if (db.provider !== "postgresql") return async () => undefined;
  const connection = listenConnections.get(db);
  if (connection === undefined) {
    throw new Error("subscribeControlPlaneChanges needs a PostgreSQL database opened with createDatabase() or openDataPlaneDatabase().");
  }
  const minDelayMs = options.minReconnectDelayMs ?? 250;
  const maxDelayMs = options.maxReconnectDelayMs ?? 10_000;
  const report = (error: unknown) => options.onError?.(error);

  let client: pg.Client | undefined;
  let closed = false;
  let failures = 0;
  let reconnectTimer: NodeJS.Timeout | undefined;
  let lastVersion: string | undefined;
  // Version reads run one at a time, in notification order; a notification during a read asks for one more.
  let reading: Promise<void> | undefined;
  let readAgain = false;

  async function readVersion(from: pg.Client): Promise<void> {
    const result = await from.query<{ version: string }>('SELECT "version"::text AS "version" FROM "control_plane_version" WHERE "id" = 1');
    const version = result.rows[0]?.version;
    // Notifications may have told a newer version meanwhile: only ever move forward.
    if (version === undefined || (lastVersion !== undefined && Number(version) <= Number(lastVersion))) return;
    const first = lastVersion === undefined;
    lastVersion = version;
    if (!first) onChange(version, { version });
  }

  /** A payload of this schema's triggers: told at once; anything else: read the version. */
  function receive(from: pg.Client, payload: string | undefined): void {
    const notification = parseNotification(payload);
    if (notification === "other-schema") return;
    if (notification === null || lastVersion === undefined) {
      checkVersion(from);
      return;
    }
    if (Number(notification.version) <= Number(lastVersion)) return;
    lastVersion = notification.version;
    onChange(notification.version, notification);
  }

  function parseNotification(payload: string | undefined): ControlPlaneNotification | "other-schema" | null {
    if (payload === undefined || !payload.startsWith("{")) return null;
    let parsed: { schema?: unknown; version?: unknown; table?: unknown; ids?: unknown };
    try {
      parsed = JSON.parse(payload) as typeof parsed;
    } catch {
      return null;
    }
    if (typeof parsed.schema === "string" && parsed.schema !== connection!.schema) return "other-schema";
    if (typeof parsed.version !== "string" || !/^\d+$/.test(parsed.version)) return null;
    const ids = Array.isArray(parsed.ids) && parsed.ids.every((id) => typeof id === "string") ? (parsed.ids as string[]) : null;
    if (typeof parsed.table !== "string" || ids === null) return { version: parsed.version };
    return { version: parsed.version, change: { version: parsed.version, table: parsed.table, ids } };
  }

  function checkVersion(from: pg.Client): void {
    if (reading) {
      readAgain = true;
      return;
    }
    reading = readVersion(from)
      .catch(report)
      .finally(() => {
        reading = undefined;
        if (readAgain && !closed && client === from) {
          readAgain = false;
          checkVersion(from);
        }
      });
  }

  function scheduleReconnect(): void {
    if (closed || reconnectTimer !== undefined) return;
    const delayMs = Math.min(maxDelayMs, minDelayMs * 2 ** Math.min(failures, 20));
    failures += 1;
    reconnectTimer = setTimeout(() => {
      reconnectTimer = undefined;
      void connect();
    }, delayMs);
    reconnectTimer.unref();
  }

  async function connect(): Promise<void> {
    if (closed) return;
    const next = new pg.Client({
      connectionString: connection!.connectionString,
      options: `-c search_path="${connection!.schema}"`,
      keepAlive: true,
      connectionTimeoutMillis: 10_000,
    });
    let lost = false;
    const onLost = (error?: unknown) => {
      if (lost) return;
      lost = true;
      if (client === next) client = undefined;
      next.removeAllListeners("notification");
      void next.end().catch(() => undefined);
      if (closed) return;
      report(error ?? new Error("The PostgreSQL LISTEN connection closed; reconnecting."));
      scheduleReconnect();
    };
    next.on("error", onLost);
    next.on("end", () => onLost());
    next.on("notification", (message) => {
      if (message.channel === controlPlaneNotificationChannel) receive(next, message.payload);
    });
    try {
      await next.connect();
      await next.query(`LISTEN ${controlPlaneNotificationChannel}`);
      if (closed) {
        await next.end().catch(() => undefined);
        return;
      }
      client = next;
      failures = 0;
      // The first read sets the baseline; after a reconnect it reports a change missed while disconnected.
      checkVersion(next);
      await reading;
    } catch (error) {
      onLost(error);
    }
  }

  await connect();
  return async () => {
    closed = true;
    if (reconnectTimer !== undefined) clearTimeout(reconnectTimer);
    reconnectTimer = undefined;
    const current = client;
    client = undefined;
    await reading?.catch(() => undefined);
    if (current) await current.end().catch(() => undefined);
  };
}

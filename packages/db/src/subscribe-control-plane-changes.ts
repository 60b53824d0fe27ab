import pg from "pg";
import type { SqlClient } from "./sql-client.js";

/** The PostgreSQL channel the control-plane triggers notify (`pg_notify('gateway_control_plane', <table>)`). */
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

/** Stops listening and closes the dedicated connection. */
export type UnsubscribeControlPlaneChanges = () => Promise<void>;

/**
 * Push notifications of control-plane changes on PostgreSQL: a dedicated `pg` connection runs
 * `LISTEN gateway_control_plane` (the version triggers `NOTIFY` it on every control-plane
 * write, raw SQL from other processes included). On each notification it reads this schema's
 * control-plane version on the same connection and calls `onChange(version)` only when the
 * version differs from the last one it saw, so notifications from other schemas of the same
 * database (NOTIFY is database-wide) cost one small read and nothing else. A lost connection
 * is re-established with exponential backoff (`onError` is told); after a reconnect,
 * `onChange` runs when the version moved meanwhile (notifications are not queued while
 * disconnected). Resolves once the first `LISTEN` succeeded or failed (a failure keeps
 * retrying in the background); never rejects. SQLite has no LISTEN: resolves a no-op (polling
 * only). Call the returned function before closing the database.
 */
export async function subscribeControlPlaneChanges(
  db: SqlClient,
  onChange: (version: string) => void,
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
    if (version === undefined || version === lastVersion) return;
    const first = lastVersion === undefined;
    lastVersion = version;
    if (!first) onChange(version);
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
      if (message.channel === controlPlaneNotificationChannel) checkVersion(next);
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

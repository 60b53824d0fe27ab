import { randomUUID } from "node:crypto";
import type { ControlPlaneChange } from "@gateway/contracts";
import type { Redis } from "ioredis";
import type { ControlPlaneAnnouncement } from "./control-plane-source.js";

/** The Redis pub/sub channel of control-plane change announcements for a key prefix. */
export function controlPlaneChannelName(keyPrefix: string): string {
  return `${keyPrefix}control-plane`;
}

/** Options of {@link announceControlPlaneChange}. */
export interface AnnounceControlPlaneChangeOptions {
  /** Any Redis connection (not one in subscriber mode). */
  redis: Redis;
  /** The gateways' `GATEWAY_REDIS_KEY_PREFIX` (default `gateway:`). */
  keyPrefix?: string;
  /** The new control-plane version, when known (instances already on it skip the reload). */
  version?: string | null;
  /** Who announces (instances ignore their own announcements). */
  origin?: string;
  /**
   * The logged changes up to `version`, oldest first, when known: instances whose version is
   * just before them apply them without reading the change log.
   */
  changes?: readonly ControlPlaneChange[];
}

/** Changes per announcement at most (a longer run is announced by its version alone). */
const maxAnnouncedChanges = 50;
/** Ids per announced change at most (a change naming more is announced by its version alone). */
const maxAnnouncedIds = 100;

/**
 * Tells every gateway instance sharing Redis that the control plane changed, so they reload
 * their snapshot at once instead of at their next version poll. For the dashboard (call it
 * after a write that commits) and the gateway itself. Resolves with the number of
 * subscribers that received it; rejects when Redis fails (polling still catches the change).
 */
export async function announceControlPlaneChange(options: AnnounceControlPlaneChangeOptions): Promise<number> {
  const changes = options.changes ?? [];
  const listable =
    options.version != null &&
    changes.length > 0 &&
    changes.length <= maxAnnouncedChanges &&
    changes[changes.length - 1]!.version === options.version &&
    changes.every((change) => change.ids === null || change.ids.length <= maxAnnouncedIds);
  const message = JSON.stringify({
    version: options.version ?? null,
    origin: options.origin ?? null,
    ...(listable ? { changes: changes.map((change) => ({ version: change.version, table: change.table, ids: change.ids })) } : {}),
  });
  return options.redis.publish(controlPlaneChannelName(options.keyPrefix ?? "gateway:"), message);
}

/** Settings of {@link createControlPlaneChangeChannel}. */
export interface ControlPlaneChangeChannelSettings {
  /** Publishes announcements. */
  redis: Redis;
  /** A dedicated connection for SUBSCRIBE (a subscribed connection can run nothing else). */
  subscriber: Redis;
  keyPrefix: string;
  /** Told about failed publishes and malformed messages. */
  onError?: (error: unknown) => void;
}

/** Control-plane change announcements over Redis pub/sub, for one gateway instance. */
export interface ControlPlaneChangeChannel {
  /** This instance's id (announcements carry it; its own are ignored). */
  readonly origin: string;
  /** Announces a change, with the changes that led to it when known (fire and forget; failures go to `onError`). */
  announce(version: string | null, changes?: readonly ControlPlaneChange[]): void;
  /**
   * Calls `onChange({ version, changes })` for every announcement by another process
   * (`version` null when the announcer did not know it; `changes` when it listed them). Fits
   * `ControlPlaneSource.subscribe`.
   */
  subscribe(onChange: (announcement: Exclude<ControlPlaneAnnouncement, string | null | undefined>) => void): Promise<() => Promise<void>>;
}

/** Creates a {@link ControlPlaneChangeChannel}. */
export function createControlPlaneChangeChannel(settings: ControlPlaneChangeChannelSettings): ControlPlaneChangeChannel {
  const origin = randomUUID();
  const channel = controlPlaneChannelName(settings.keyPrefix);
  return {
    origin,
    announce(version, changes) {
      announceControlPlaneChange({ redis: settings.redis, keyPrefix: settings.keyPrefix, version, origin, ...(changes === undefined ? {} : { changes }) }).catch((error: unknown) =>
        settings.onError?.(error),
      );
    },
    async subscribe(onChange) {
      const listener = (received: string, message: string) => {
        if (received !== channel) return;
        let parsed: { version?: unknown; origin?: unknown; changes?: unknown } = {};
        try {
          parsed = JSON.parse(message) as typeof parsed;
        } catch (error) {
          settings.onError?.(error);
        }
        if (parsed.origin === origin) return;
        const version = typeof parsed.version === "string" ? parsed.version : null;
        const changes = parseAnnouncedChanges(parsed.changes);
        onChange(changes === undefined ? { version } : { version, changes });
      };
      settings.subscriber.on("message", listener);
      // Not awaited: with Redis down the gateway still starts (ioredis subscribes again on reconnect).
      settings.subscriber.subscribe(channel).catch((error: unknown) => settings.onError?.(error));
      return async () => {
        settings.subscriber.off("message", listener);
        await settings.subscriber.unsubscribe(channel).catch(() => undefined);
      };
    },
  };
}

/** Announced changes when well-formed, else undefined (then the receiver reads the log). */
function parseAnnouncedChanges(value: unknown): ControlPlaneChange[] | undefined {
  if (!Array.isArray(value)) return undefined;
  const changes: ControlPlaneChange[] = [];
  for (const entry of value as unknown[]) {
    if (typeof entry !== "object" || entry === null) return undefined;
    const { version, table, ids } = entry as { version?: unknown; table?: unknown; ids?: unknown };
    if (typeof version !== "string" || typeof table !== "string") return undefined;
    if (ids !== null && !(Array.isArray(ids) && ids.every((id) => typeof id === "string"))) return undefined;
    changes.push({ version, table, ids: ids as string[] | null });
  }
  return changes;
}

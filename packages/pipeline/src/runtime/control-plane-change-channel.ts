import { randomUUID } from "node:crypto";
import type { Redis } from "ioredis";

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
}

/**
 * Tells every gateway instance sharing Redis that the control plane changed, so they reload
 * their snapshot at once instead of at their next version poll. For the dashboard (call it
 * after a write that commits) and the gateway itself. Resolves with the number of
 * subscribers that received it; rejects when Redis fails (polling still catches the change).
 */
export async function announceControlPlaneChange(options: AnnounceControlPlaneChangeOptions): Promise<number> {
  const message = JSON.stringify({ version: options.version ?? null, origin: options.origin ?? null });
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
  /** Announces a change (fire and forget; failures go to `onError`). */
  announce(version: string | null): void;
  /**
   * Calls `onChange(version)` for every announcement by another process (`version` null when
   * the announcer did not know it). Fits `ControlPlaneSource.subscribe`.
   */
  subscribe(onChange: (version: string | null) => void): Promise<() => Promise<void>>;
}

/** Creates a {@link ControlPlaneChangeChannel}. */
export function createControlPlaneChangeChannel(settings: ControlPlaneChangeChannelSettings): ControlPlaneChangeChannel {
  const origin = randomUUID();
  const channel = controlPlaneChannelName(settings.keyPrefix);
  return {
    origin,
    announce(version) {
      announceControlPlaneChange({ redis: settings.redis, keyPrefix: settings.keyPrefix, version, origin }).catch((error: unknown) =>
        settings.onError?.(error),
      );
    },
    async subscribe(onChange) {
      const listener = (received: string, message: string) => {
        if (received !== channel) return;
        let parsed: { version?: unknown; origin?: unknown } = {};
        try {
          parsed = JSON.parse(message) as typeof parsed;
        } catch (error) {
          settings.onError?.(error);
        }
        if (parsed.origin === origin) return;
        onChange(typeof parsed.version === "string" ? parsed.version : null);
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

import type { DatabaseClient, SecretBox, SqlClient } from "@gateway/db";
import type { AttemptLimiter } from "../auth/attempt-limiter.js";
import type { LoginThrottle } from "../auth/login-throttle.js";
import type { DashboardSettings } from "../dashboard-settings.js";
import type { DashboardLogger } from "../dashboard-logger.js";
import type { Mailer } from "../email/create-mailer.js";
import type { PlaygroundRunner } from "@gateway/pipeline";
import type { LimitCounters } from "./limit-counters.js";

/** Encrypts and decrypts secrets at rest (provider credentials, webhook secrets, OAuth tokens): `@gateway/db`'s secret box. */
export type SecretCipher = SecretBox;

/** Everything route handlers use, built once by `createDashboardApp`. */
export interface DashboardServices {
  /** Data access goes through `@gateway/db`'s repository functions with this handle. */
  database: DatabaseClient & SqlClient;
  /** @deprecated Raw Prisma client, still used by the playground routes only; use `database` with `@gateway/db`. */
  prisma: DatabaseClient["prisma"];
  secrets: SecretCipher;
  settings: DashboardSettings;
  logger: DashboardLogger;
  mailer: Mailer;
  /** Login throttling: per (account, address) and per address, slowed down per account. */
  loginThrottle: LoginThrottle;
  resendLimiter: AttemptLimiter;
  playground: PlaygroundRunner | null;
  /** The admission counters the budget and rate-limit statuses read; null: recorded usage only. */
  limitCounters: LimitCounters | null;
  /**
   * The `fetch` of connection tests and OAuth discovery (tests inject one); default the outbound
   * address policy's (`defaultOutboundFetch`: each connection checked on its resolved address).
   */
  outboundFetch?: typeof fetch;
  /**
   * Tells the gateways about an audited write when it is a control-plane change (Redis
   * announcement, in-process snapshot refresh). Never throws; called by `recordAuditEvent`.
   */
  announceControlPlaneChange(action: string): Promise<void>;
  now(): Date;
}

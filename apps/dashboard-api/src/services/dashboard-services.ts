import type { DatabaseClient } from "@gateway/db";
import type { AttemptLimiter } from "../auth/attempt-limiter.js";
import type { DashboardSettings } from "../dashboard-settings.js";
import type { DashboardLogger } from "../dashboard-logger.js";
import type { Mailer } from "../email/create-mailer.js";
import type { PlaygroundRunner } from "../playground/playground-runner.js";

/** Encrypts and decrypts secrets at rest (provider credentials, webhook secrets, OAuth tokens). */
export interface SecretCipher {
  encrypt(plaintext: string): string;
  decrypt(ciphertext: string): string;
}

/** Everything route handlers use, built once by `createDashboardApp`. */
export interface DashboardServices {
  database: DatabaseClient;
  prisma: DatabaseClient["prisma"];
  secrets: SecretCipher;
  settings: DashboardSettings;
  logger: DashboardLogger;
  mailer: Mailer;
  loginLimiters: { account: AttemptLimiter; address: AttemptLimiter };
  resendLimiter: AttemptLimiter;
  playground: PlaygroundRunner | null;
  now(): Date;
}

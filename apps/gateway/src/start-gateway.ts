import type { Database } from "@gateway/db";
import type { GatewayLogger } from "./create-gateway-runtime.js";
import { type GatewaySettings, readGatewaySettings } from "./gateway-settings.js";
import { createGatewayLogger } from "./logging/create-gateway-logger.js";
import { type RunningGateway, serveGateway } from "./serve-gateway.js";
import { runStartupTasks } from "./startup-tasks.js";

export type { RunningGateway, ServableDatabase } from "./serve-gateway.js";

/** Options of {@link startGateway}. */
export interface StartGatewayOptions {
  /** Environment variables (default `process.env`); see the README for each one. */
  env?: Record<string, string | undefined>;
  /** Overrides of settings read from `env`. */
  settings?: Partial<GatewaySettings>;
  /** Where notices (first-start credentials, the listening address), errors and request lines go. Default: JSON lines on stdout (pino; readable lines in a terminal). */
  logger?: GatewayLogger;
}

/**
 * Starts the gateway in this thread: opens the database (`DATABASE_URL` or embedded SQLite
 * under the data directory) and migrates it, loads the secret box, creates the first
 * organization, admin, project, key and `demo` connection on an empty database (printing
 * generated secrets once), applies the configuration file (`GATEWAY_CONFIG`), loads the
 * control-plane snapshot and listens. Throws (before listening) on invalid environment or
 * configuration. The returned `database` is the full client (Prisma included), for embedding
 * next to the dashboard in one process; the standalone server (`dist/main.js`) uses
 * `startStandaloneGateway` instead, which keeps Prisma out of the serving process.
 */
export async function startGateway(options: StartGatewayOptions = {}): Promise<RunningGateway<Database>> {
  const env = options.env ?? process.env;
  const settings = { ...readGatewaySettings(env), ...options.settings };
  const logger = options.logger ?? createGatewayLogger({ level: settings.logLevel, ...(settings.logFormat === undefined ? {} : { format: settings.logFormat }) });
  const { database, secretBox } = await runStartupTasks(settings, env, logger);
  return serveGateway(database, secretBox, settings, logger);
}

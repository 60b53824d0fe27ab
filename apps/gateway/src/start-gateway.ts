import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import {
  type Database,
  type SecretBox,
  createDatabase,
  listEnabledNotificationChannels,
  listEnabledTelemetryDestinations,
  loadControlPlaneSnapshot,
  loadSecretBoxFromEnvironment,
  readControlPlaneVersion,
  recordNotificationDelivery,
  recordTelemetryDelivery,
  subscribeControlPlaneChanges,
  writeUsageBatch,
} from "@gateway/db";
import type { DeliveryTargets, NotificationChannelConfig, TelemetryDestinationConfig } from "@gateway/pipeline";
import { bootstrapFirstStart } from "./bootstrap-first-start.js";
import { applyGatewayConfig } from "./config-file/apply-gateway-config.js";
import { loadGatewayConfig } from "./config-file/load-gateway-config.js";
import { type GatewayLogger, type GatewayRuntime, createGatewayRuntime } from "./create-gateway-runtime.js";
import { type GatewaySettings, readGatewaySettings } from "./gateway-settings.js";

/** Options of {@link startGateway}. */
export interface StartGatewayOptions {
  /** Environment variables (default `process.env`); see the README for each one. */
  env?: Record<string, string | undefined>;
  /** Overrides of settings read from `env`. */
  settings?: Partial<GatewaySettings>;
  /** Where notices (first-start credentials, the listening address) and errors go. Default: console. */
  logger?: GatewayLogger;
}

/** A running gateway. */
export interface RunningGateway {
  /** `http://host:port` it listens on. */
  url: string;
  server: Server;
  database: Database;
  runtime: GatewayRuntime;
  /** Stops accepting connections, waits for in-flight requests, drains usage events, closes the database. */
  close(): Promise<void>;
}

/**
 * Starts the gateway: opens the database (`DATABASE_URL` or embedded SQLite under the data
 * directory) and migrates it, loads the secret box, creates the first organization, admin,
 * project, key and `demo` connection on an empty database (printing generated secrets once),
 * applies the configuration file (`GATEWAY_CONFIG`), loads the control-plane snapshot and
 * listens. Throws (before listening) on invalid environment or configuration.
 */
export async function startGateway(options: StartGatewayOptions = {}): Promise<RunningGateway> {
  const env = options.env ?? process.env;
  const logger = options.logger ?? consoleLogger;
  const settings = { ...readGatewaySettings(env), ...options.settings };
  const config = settings.configPath === undefined ? null : await loadGatewayConfig(settings.configPath);

  const database = createDatabase({
    ...(settings.databaseUrl === undefined ? {} : { url: settings.databaseUrl }),
    dataDirectory: settings.dataDirectory,
  });
  try {
    await database.migrate();
    const secretBox = loadSecretBoxFromEnvironment({
      env,
      dataDirectory: settings.dataDirectory,
      logger: { info: (message) => logger.info(message), warn: (message) => logger.info(message) },
    });
    if (config === null || config.organizations.length === 0) {
      const created = await bootstrapFirstStart({
        db: database,
        secretBox,
        ...(settings.adminEmail === undefined ? {} : { adminEmail: settings.adminEmail }),
        ...(settings.adminPassword === undefined ? {} : { adminPassword: settings.adminPassword }),
        ...(settings.apiKey === undefined ? {} : { apiKey: settings.apiKey }),
      });
      if (created) {
        logger.info(
          [
            "First start: created the default organization, an admin account, a project, an API key and a 'demo' connection.",
            `  Admin login: ${created.adminEmail}${created.generatedAdminPassword === null ? " (password from GATEWAY_ADMIN_PASSWORD)" : ` / password: ${created.generatedAdminPassword}`}`,
            created.apiKeyGenerated ? `  API key (shown once, store it now): ${created.apiKey}` : "  API key: from GATEWAY_API_KEY",
            "  Try: model 'demo/demo/decide' on POST /v1/systemone.",
          ].join("\n"),
        );
      }
    }
    if (config !== null) {
      const applied = await applyGatewayConfig(config, { db: database, secretBox, env });
      logger.info(`Applied ${settings.configPath} (${applied.organizations} organization(s)).`);
      for (const key of applied.generatedKeys) {
        logger.info(`Generated API key ${key.organization}/${key.project}/${key.name} (shown once, store it now): ${key.secret}`);
      }
    }

    const runtime = await createGatewayRuntime({
      source: {
        load: () => loadControlPlaneSnapshot(database, { secretBox }),
        readVersion: () => readControlPlaneVersion(database),
        // PostgreSQL: LISTEN gateway_control_plane (the version triggers NOTIFY it), next to Redis announcements when configured.
        ...(database.provider === "postgresql" && settings.postgresListen
          ? {
              subscribe: (onChange: (version?: string | null) => void) =>
                subscribeControlPlaneChanges(database, onChange, {
                  onError: (error) => logger.error("PostgreSQL LISTEN for control-plane changes failed; reconnecting (polling continues).", error),
                }),
            }
          : {}),
        loadDeliveryTargets: () => loadDeliveryTargets(database, secretBox),
      },
      // Background bookkeeping of the dashboard's `last_delivery_*` columns (never on the request path).
      onDeliveryReport: (report) => {
        const record = report.kind === "telemetry" ? recordTelemetryDelivery : recordNotificationDelivery;
        record(database, report.targetId, { ok: report.delivered }).catch((error: unknown) =>
          logger.error("Recording a delivery outcome failed.", error),
        );
      },
      sink: { write: async (events) => void (await writeUsageBatch(database, events)) },
      settings: {
        ...settings,
        // SQLite writes on the event loop: smaller batches keep each pause short.
        usageBatchSize: settings.usageBatchSize ?? (database.provider === "sqlite" ? 100 : 500),
      },
      logger,
    });
    const server = runtime.app.listen(settings.port, settings.host);
    await new Promise<void>((resolve, reject) => {
      server.once("listening", resolve);
      server.once("error", reject);
    });
    const address = server.address() as AddressInfo;
    const url = `http://${address.family === "IPv6" ? `[${address.address}]` : address.address}:${address.port}`;
    logger.info(`Gateway listening on ${url}`);

    let closing: Promise<void> | undefined;
    return {
      url,
      server,
      database,
      runtime,
      close() {
        closing ??= (async () => {
          const closed = new Promise<void>((resolve) => server.close(() => resolve()));
          server.closeIdleConnections();
          const forceAfter = setTimeout(() => server.closeAllConnections(), settings.shutdownTimeoutMs);
          await closed;
          clearTimeout(forceAfter);
          await runtime.close({ timeoutMs: settings.shutdownTimeoutMs });
          await database.close();
        })();
        return closing;
      },
    };
  } catch (error) {
    await database.close().catch(() => undefined);
    throw error;
  }
}

/** Enabled telemetry destinations and notification channels of every organization (decrypted; never logged). */
async function loadDeliveryTargets(database: Database, secretBox: SecretBox): Promise<DeliveryTargets> {
  const [destinations, channels] = await Promise.all([
    listEnabledTelemetryDestinations(database, { secretBox }),
    listEnabledNotificationChannels(database, { secretBox }),
  ]);
  return {
    telemetryDestinations: destinations
      .filter((destination) => destination.config.kind === "otlp_http" || destination.config.kind === "webhook")
      .map((destination) => ({
        id: destination.id,
        organizationId: destination.organizationId,
        name: destination.name,
        config: destination.config as unknown as TelemetryDestinationConfig,
      })),
    notificationChannels: channels
      .filter((channel) => ["webhook", "slack", "email"].includes(String(channel.config.kind)))
      .map((channel) => ({
        id: channel.id,
        organizationId: channel.organizationId,
        name: channel.name,
        events: channel.events,
        config: channel.config as unknown as NotificationChannelConfig,
      })),
  };
}

const consoleLogger: GatewayLogger = {
  info: (message) => console.log(message),
  error: (message, error) => console.error(message, error instanceof Error ? error.message : (error ?? "")),
};

import { type Database, type SecretBox, createDatabase, loadSecretBoxFromEnvironment, reencryptStoredSecrets } from "@gateway/db";
import { bootstrapFirstStart } from "./bootstrap-first-start.js";
import { applyGatewayConfig } from "./config-file/apply-gateway-config.js";
import { loadGatewayConfig } from "./config-file/load-gateway-config.js";
import type { GatewayLogger } from "./create-gateway-runtime.js";
import type { GatewaySettings } from "./gateway-settings.js";

/**
 * The start-up work that needs Prisma: opens the database and migrates it, loads the secret
 * box, creates the first organization, admin, project, key and `demo` connection on an empty
 * database (printing generated secrets once) and applies the configuration file. Returns the
 * open database (the caller closes it). Throws `GatewayConfigError` for a bad configuration file.
 */
export async function runStartupTasks(
  settings: GatewaySettings,
  env: Record<string, string | undefined>,
  logger: Pick<GatewayLogger, "info">,
): Promise<{ database: Database; secretBox: SecretBox }> {
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
    // Data migration: stored credentials not yet bound to their row (v1) or under an old key.
    const { reencrypted } = await reencryptStoredSecrets(database, secretBox);
    if (reencrypted > 0) logger.info(`Re-encrypted ${reencrypted} stored credential(s) bound to their rows.`);
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
          // Generated secrets are printed on purpose, once: the log redaction leaves this line alone.
          { shown_once: true },
        );
      }
    }
    if (config !== null) {
      const applied = await applyGatewayConfig(config, { db: database, secretBox, env });
      logger.info(`Applied ${settings.configPath} (${applied.organizations} organization(s)).`);
      for (const key of applied.generatedKeys) {
        logger.info(`Generated API key ${key.organization}/${key.project}/${key.name} (shown once, store it now): ${key.secret}`, { shown_once: true });
      }
    }
    return { database, secretBox };
  } catch (error) {
    await database.close().catch(() => undefined);
    throw error;
  }
}

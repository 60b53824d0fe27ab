import { GatewayConfigError } from "./config-file/load-gateway-config.js";
import { readGatewaySettings } from "./gateway-settings.js";
import { type GatewayJsonLogger, createGatewayLogger } from "./logging/create-gateway-logger.js";
import { startStandaloneGateway } from "./start-standalone-gateway.js";

/** Server entry: `node dist/main.js`. Configuration comes from the environment (see README). */
async function main(): Promise<void> {
  let gateway;
  let logger: GatewayJsonLogger;
  try {
    const settings = readGatewaySettings();
    logger = createGatewayLogger({ level: settings.logLevel, ...(settings.logFormat === undefined ? {} : { format: settings.logFormat }) });
    gateway = await startStandaloneGateway({ logger });
  } catch (error) {
    const message = error instanceof GatewayConfigError || (error instanceof Error && error.message.startsWith("Invalid environment"))
      ? error.message
      : `The gateway could not start: ${error instanceof Error ? error.message : String(error)}`;
    console.error(message);
    process.exit(1);
  }
  const running = gateway;
  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info(`${signal} received: draining and shutting down.`);
    running.close().then(
      () => logger.pino.flush(() => process.exit(0)),
      (error: unknown) => {
        logger.error("Shutdown failed.", error);
        logger.pino.flush(() => process.exit(1));
      },
    );
  };
  process.once("SIGTERM", () => stop("SIGTERM"));
  process.once("SIGINT", () => stop("SIGINT"));
}

void main();

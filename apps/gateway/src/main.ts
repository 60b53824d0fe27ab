import { GatewayConfigError } from "./config-file/load-gateway-config.js";
import { startStandaloneGateway } from "./start-standalone-gateway.js";

/** Server entry: `node dist/main.js`. Configuration comes from the environment (see README). */
async function main(): Promise<void> {
  let gateway;
  try {
    gateway = await startStandaloneGateway();
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
    console.log(`${signal} received: draining and shutting down.`);
    running.close().then(
      () => process.exit(0),
      (error: unknown) => {
        console.error("Shutdown failed:", error instanceof Error ? error.message : error);
        process.exit(1);
      },
    );
  };
  process.once("SIGTERM", () => stop("SIGTERM"));
  process.once("SIGINT", () => stop("SIGINT"));
}

void main();

// Entry of the short-lived start-up process of `startStandaloneGateway`: runs the start-up tasks
// that need Prisma (migrations, first-start bootstrap, the configuration file), reports notices
// and the outcome to the parent over IPC, closes the database and exits, so that everything it
// loaded and allocated (Prisma's runtime and query compiler, malloc arenas) is returned to the
// system before the gateway serves.
import { GatewayConfigError } from "./config-file/load-gateway-config.js";
import type { GatewaySettings } from "./gateway-settings.js";
import { runStartupTasks } from "./startup-tasks.js";

/** Messages from the start-up process to the gateway. */
export type StartupWorkerMessage =
  | { kind: "notice"; message: string; fields?: Record<string, unknown> }
  | { kind: "done" }
  | { kind: "failed"; name: string; message: string; fieldPath: string | null };

/** The gateway's one message to the start-up process. */
export interface StartupWorkerRequest {
  settings: GatewaySettings;
}

// Resolves also when the gateway is gone (the message is then lost, and nothing waits for it).
const send = (message: StartupWorkerMessage) =>
  new Promise<void>((resolve) => {
    if (!process.connected) return resolve();
    process.send!(message, () => resolve());
  });

async function run(request: StartupWorkerRequest): Promise<void> {
  try {
    const notices: Promise<void>[] = [];
    const { database } = await runStartupTasks(request.settings, process.env, { info: (message, fields) => void notices.push(send({ kind: "notice", message, ...(fields === undefined ? {} : { fields }) })) });
    await database.close();
    await Promise.all(notices);
    await send({ kind: "done" });
  } catch (error) {
    const fieldPath = error instanceof GatewayConfigError ? error.fieldPath : null;
    await send({ kind: "failed", name: error instanceof Error ? error.name : "Error", message: error instanceof Error ? error.message : String(error), fieldPath });
  }
  if (process.connected) process.disconnect();
}

if (process.send === undefined) {
  console.error("startup-worker.js is started by the gateway (startStandaloneGateway), not directly.");
  process.exit(2);
}
process.once("message", (request: StartupWorkerRequest) => void run(request));

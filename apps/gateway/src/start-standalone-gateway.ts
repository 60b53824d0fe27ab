import { fork } from "node:child_process";
import { fileURLToPath } from "node:url";
import { setFlagsFromString } from "node:v8";
import type { DataPlaneDatabase } from "@gateway/db/data-plane";
import { GatewayConfigError } from "./config-file/load-gateway-config.js";
// Not from serve-gateway.js: that module loads Express, which must wait until the start-up process has ended.
import { createGatewayLogger } from "./logging/create-gateway-logger.js";
import { type GatewaySettings, readGatewaySettings } from "./gateway-settings.js";
import type { RunningGateway } from "./serve-gateway.js";
import type { StartGatewayOptions } from "./start-gateway.js";
import type { StartupWorkerMessage, StartupWorkerRequest } from "./startup-worker.js";

/**
 * Starts the gateway as the standalone server does (`node dist/main.js`): the same start-up as
 * `startGateway` (migrations, first-start bootstrap, configuration file), but run in a
 * short-lived child process (`dist/startup-worker.js`, notices relayed to `logger`), then
 * serving on the raw SQLite/PostgreSQL driver only. Prisma's runtime and query compiler (about
 * 55 MB) are never loaded into the serving process, and the serving code (Express, undici, the
 * pipeline) is loaded only after the start-up process has exited. Needs the built package.
 */
export async function startStandaloneGateway(options: StartGatewayOptions = {}): Promise<RunningGateway<DataPlaneDatabase>> {
  const env = options.env ?? process.env;
  const settings = { ...readGatewaySettings(env), ...options.settings };
  const logger = options.logger ?? createGatewayLogger({ level: settings.logLevel, ...(settings.logFormat === undefined ? {} : { format: settings.logFormat }) });
  limitHeapGrowth(settings.heapGrowingPercent);
  await runStartupWorker(settings, env, (message, fields) => logger.info(message, fields));

  const [{ loadSecretBoxFromEnvironment, openDataPlaneDatabase }, { serveGateway }] = await Promise.all([
    import("@gateway/db/data-plane"),
    import("./serve-gateway.js"),
  ]);
  const database = openDataPlaneDatabase({
    ...(settings.databaseUrl === undefined ? {} : { url: settings.databaseUrl }),
    dataDirectory: settings.dataDirectory,
  });
  let secretBox;
  try {
    // The worker created the key file on a first start (and said so); this only reads it.
    secretBox = loadSecretBoxFromEnvironment({ env, dataDirectory: settings.dataDirectory, logger: { info: () => undefined, warn: (message) => logger.info(message) } });
  } catch (error) {
    await database.close();
    throw error;
  }
  return serveGateway(database, secretBox, settings, logger);
}

/**
 * Under load the gateway's live heap stays around 25 MB, but V8's dynamic growing factor (up to
 * 4x) lets garbage pile up to 100+ MB between major collections. A fixed factor keeps the old
 * generation near its live size (peak RSS of the benchmark: ~178 MB -> ~140 MB at 30%, CPU
 * within noise). `--heap-growing-percent` is read by V8 at each collection, so setting it now
 * takes effect; a value given on the command line wins.
 */
function limitHeapGrowth(percent: number): void {
  if (percent <= 0 || process.execArgv.some((argument) => argument.startsWith("--heap-growing-percent"))) return;
  setFlagsFromString(`--heap-growing-percent=${percent}`);
}

function runStartupWorker(settings: GatewaySettings, env: Record<string, string | undefined>, notice: (message: string, fields?: Record<string, unknown>) => void): Promise<void> {
  return new Promise((resolve, reject) => {
    // A child process rather than a worker thread: when it exits, all of its memory is returned
    // (a worker's freed malloc arenas stay resident in this process, tens of MB).
    const child = fork(fileURLToPath(new URL("./startup-worker.js", import.meta.url)), [], {
      env: Object.fromEntries(Object.entries(env).filter((entry): entry is [string, string] => entry[1] !== undefined)),
      execArgv: [],
      stdio: ["ignore", "inherit", "inherit", "ipc"],
    });
    let outcome: StartupWorkerMessage | undefined;
    child.on("message", (message: StartupWorkerMessage) => {
      if (message.kind === "notice") notice(message.message, message.fields);
      else outcome = message;
    });
    child.once("error", reject);
    child.once("exit", (code, signal) => {
      if (outcome?.kind === "done") resolve();
      else if (outcome?.kind === "failed") {
        reject(outcome.name === "GatewayConfigError" ? new GatewayConfigError(outcome.message, outcome.fieldPath) : Object.assign(new Error(outcome.message), { name: outcome.name }));
      } else reject(new Error(`The start-up process exited (${signal ?? `code ${code}`}) before finishing.`));
    });
    const request: StartupWorkerRequest = { settings };
    child.send(request);
  });
}

import { type ChildProcess, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { type Database, generateApiKey } from "@gateway/db";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type RunningGateway, startGateway } from "../src/start-gateway.js";
import { createRecordingLogger, createTemporaryDirectory } from "./support/temporary-directory.js";

const serverEntry = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../dist/main.js");

let directory: ReturnType<typeof createTemporaryDirectory>;
let local: RunningGateway<Database>;
let child: ChildProcess;
let childUrl: string;
const apiKey = generateApiKey().secret;

/** Starts the built server entry in a child process and resolves with the URL it prints. */
function startChild(env: Record<string, string>): Promise<{ process: ChildProcess; url: string }> {
  return new Promise((resolve, reject) => {
    const started = spawn(process.execPath, [serverEntry], {
      env: { PATH: process.env.PATH ?? "", ...env },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let output = "";
    const timer = setTimeout(() => reject(new Error(`child gateway did not start:\n${output}`)), 20_000);
    const onData = (chunk: Buffer) => {
      output += chunk.toString("utf8");
      const match = /Gateway listening on (http:\/\/\S+)/.exec(output);
      if (match) {
        clearTimeout(timer);
        resolve({ process: started, url: match[1]! });
      }
    };
    started.stdout!.on("data", onData);
    started.stderr!.on("data", onData);
    started.once("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`child gateway exited with ${code}:\n${output}`));
    });
  });
}

beforeAll(async () => {
  if (!existsSync(serverEntry)) throw new Error(`Build the gateway first (pnpm --filter @gateway/gateway build): ${serverEntry} is missing.`);
  directory = createTemporaryDirectory();
  const env = { GATEWAY_SECRET_KEY: randomBytes(32).toString("base64"), GATEWAY_API_KEY: apiKey };
  local = await startGateway({
    env,
    settings: { port: 0, host: "127.0.0.1", dataDirectory: directory.path },
    logger: createRecordingLogger(),
  });
  const started = await startChild({
    ...env,
    GATEWAY_PORT: "0",
    GATEWAY_HOST: "127.0.0.1",
    GATEWAY_DATA_DIR: directory.path,
    GATEWAY_SNAPSHOT_POLL_MS: "250",
  });
  child = started.process;
  childUrl = started.url;
}, 30_000);

afterAll(async () => {
  if (child && child.exitCode === null) {
    const exited = new Promise((resolve) => child.once("exit", resolve));
    child.kill("SIGTERM");
    await exited;
  }
  await local?.close();
  directory?.remove();
});

const listModels = (url: string) => fetch(`${url}/v1/models`, { headers: { authorization: `Bearer ${apiKey}` } });

describe("two gateway processes on one database", () => {
  it("a key revoked by raw SQL from another process is refused by the child within one second", async () => {
    expect((await listModels(childUrl)).status).toBe(200);
    const revokedAt = Date.now();
    const updated = await local.database.prisma.$executeRawUnsafe(
      "UPDATE api_keys SET revoked_at = CURRENT_TIMESTAMP WHERE revoked_at IS NULL",
    );
    expect(updated).toBe(1);
    let status = 200;
    while (status !== 401 && Date.now() - revokedAt < 3000) {
      status = (await listModels(childUrl)).status;
      if (status !== 401) await new Promise((resolve) => setTimeout(resolve, 25));
    }
    const elapsed = Date.now() - revokedAt;
    console.log(`revocation seen by the child after ${elapsed} ms`);
    expect(status).toBe(401);
    expect(elapsed).toBeLessThan(1000);
  });

  it("the child drains and exits cleanly on SIGTERM", async () => {
    const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
    child.kill("SIGTERM");
    expect(await exited).toBe(0);
  });
});

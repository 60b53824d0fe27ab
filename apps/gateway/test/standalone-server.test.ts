import { type ChildProcess, spawn } from "node:child_process";
import { existsSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { createDatabase } from "@gateway/db";
import { afterEach, describe, expect, it } from "vitest";
import { decisionBody, postDecision } from "./support/post-decision.js";
import { createTemporaryDirectory } from "./support/temporary-directory.js";

const serverEntry = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../dist/main.js");

/** A module hook for the serving process: any import resolving into Prisma fails the start. */
const noPrismaHook = `
import { register } from "node:module";
register("data:text/javascript," + encodeURIComponent(\`
  export async function resolve(specifier, context, next) {
    const resolved = await next(specifier, context);
    if (/@prisma|\\\\/generated\\\\//.test(resolved.url)) throw new Error("Prisma was loaded into the serving process: " + resolved.url);
    return resolved;
  }
\`));
`;

let running: ChildProcess | undefined;
afterEach(() => {
  if (running?.exitCode === null) running.kill("SIGKILL");
  running = undefined;
});

/** Starts `node [args] dist/main.js`; resolves with its URL and everything it printed once it listens. */
function startServer(args: string[], env: Record<string, string>): Promise<{ process: ChildProcess; url: string; output: () => string }> {
  if (!existsSync(serverEntry)) throw new Error(`Build the gateway first (pnpm --filter @gateway/gateway build): ${serverEntry} is missing.`);
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...args, serverEntry], { env: { PATH: process.env.PATH ?? "", ...env }, stdio: ["ignore", "pipe", "pipe"] });
    running = child;
    let output = "";
    const timer = setTimeout(() => reject(new Error(`the server did not start:\n${output}`)), 30_000);
    const onData = (chunk: Buffer) => {
      output += chunk.toString("utf8");
      const match = /Gateway listening on (http:\/\/\S+)/.exec(output);
      if (match) {
        clearTimeout(timer);
        resolve({ process: child, url: match[1]!, output: () => output });
      }
    };
    child.stdout!.on("data", onData);
    child.stderr!.on("data", onData);
    child.once("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`the server exited with ${code}:\n${output}`));
    });
  });
}

describe("the standalone server (dist/main.js)", () => {
  it("bootstraps an empty database in its start-up process, prints the first-start credentials, serves without Prisma and records usage", async () => {
    const directory = createTemporaryDirectory();
    try {
      const hook = path.join(directory.path, "no-prisma.mjs");
      writeFileSync(hook, noPrismaHook);
      const server = await startServer(["--import", pathToFileURL(hook).href], { GATEWAY_PORT: "0", GATEWAY_DATA_DIR: directory.path, GATEWAY_USAGE_FLUSH_MS: "20" });
      const output = server.output();
      expect(output).toContain("First start: created the default organization");
      expect(output).toMatch(/Admin login: admin@gateway\.local \/ password: \S+/);
      expect(output).toContain("Generated a new secret key"); // the start-up process created data/secret.key and said so
      const apiKey = /API key \(shown once, store it now\): (gak_\w+)/.exec(output)?.[1];
      expect(apiKey).toBeDefined();

      const answer = await postDecision(server.url, { apiKey: apiKey!, body: decisionBody("demo/demo/decide") });
      expect(answer.status).toBe(200);

      const exited = new Promise<number | null>((resolve) => server.process.once("exit", resolve));
      server.process.kill("SIGTERM");
      expect(await exited).toBe(0);
      const database = createDatabase({ dataDirectory: directory.path });
      try {
        expect(await database.prisma.usageEvent.count({ where: { requestId: answer.requestId } })).toBe(1);
      } finally {
        await database.close();
      }

      // A second start on the same database bootstraps nothing and prints no credentials.
      const again = await startServer([], { GATEWAY_PORT: "0", GATEWAY_DATA_DIR: directory.path });
      expect(again.output()).not.toContain("First start");
      expect((await postDecision(again.url, { apiKey: apiKey!, body: decisionBody("demo/demo/decide") })).status).toBe(200);
    } finally {
      running?.kill("SIGKILL");
      directory.remove();
    }
  }, 60_000);

  it("stops with the database's own message when the database cannot be opened", async () => {
    const directory = createTemporaryDirectory();
    try {
      await expect(startServer([], { GATEWAY_PORT: "0", DATABASE_URL: "mysql://nope" })).rejects.toThrow(/exited with 1[\s\S]*The gateway could not start/);
    } finally {
      directory.remove();
    }
  });
});

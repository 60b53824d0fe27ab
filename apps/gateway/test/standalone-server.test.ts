import type { ChildProcess } from "node:child_process";
import { writeFileSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { createDatabase } from "@gateway/db";
import { afterEach, describe, expect, it, vi } from "vitest";
import { decisionBody, postDecision } from "./support/post-decision.js";
import { type ServerProcess, startServerProcess, stopServerProcess } from "./support/server-process.js";
import { createTemporaryDirectory } from "./support/temporary-directory.js";


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
/** Starts the server and remembers it, so that a failed test does not leave it running. */
async function start(env: Record<string, string>, nodeArgs: string[] = []): Promise<ServerProcess> {
  const server = await startServerProcess(env, nodeArgs);
  running = server.process;
  return server;
}
afterEach(() => {
  if (running?.exitCode === null) running.kill("SIGKILL");
  running = undefined;
});

describe("the standalone server (dist/main.js)", () => {
  it("bootstraps an empty database in its start-up process, prints the first-start credentials, serves without Prisma and records usage", async () => {
    const directory = createTemporaryDirectory();
    try {
      const hook = path.join(directory.path, "no-prisma.mjs");
      writeFileSync(hook, noPrismaHook);
      const server = await start({ GATEWAY_PORT: "0", GATEWAY_DATA_DIR: directory.path, GATEWAY_USAGE_FLUSH_MS: "20" }, ["--import", pathToFileURL(hook).href]);
      const output = server.output();
      expect(output).toContain("First start: created the default organization");
      expect(output).toMatch(/Admin login: admin@gateway\.local \/ password: \S+/);
      expect(output).toContain("Generated a new secret key"); // the start-up process created data/secret.key and said so
      const apiKey = /API key \(shown once, store it now\): (gak_\w+)/.exec(output)?.[1];
      expect(apiKey).toBeDefined();

      const answer = await postDecision(server.url, { apiKey: apiKey!, body: decisionBody("demo/demo/decide") });
      expect(answer.status).toBe(200);

      expect(await stopServerProcess(server.process)).toBe(0);
      // Request lines are written in batches; the last ones still reach stdout when the server stops.
      await vi.waitFor(() => expect(server.output()).toContain(`"request_id":"${answer.requestId}"`), { timeout: 2000, interval: 20 });
      const database = createDatabase({ dataDirectory: directory.path });
      try {
        expect(await database.prisma.usageEvent.count({ where: { requestId: answer.requestId } })).toBe(1);
      } finally {
        await database.close();
      }

      // A second start on the same database bootstraps nothing and prints no credentials.
      const again = await start({ GATEWAY_PORT: "0", GATEWAY_DATA_DIR: directory.path });
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
      await expect(start({ GATEWAY_PORT: "0", DATABASE_URL: "mysql://nope" })).rejects.toThrow(/exited with 1[\s\S]*The gateway could not start/);
    } finally {
      directory.remove();
    }
  });
});

import { type ChildProcess, spawn } from "node:child_process";
import { existsSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

/**
 * The built standalone server entry (`GATEWAY_TEST_SERVER_ENTRY` runs the suites against another
 * build, e.g. to check that a new test fails on the previous release).
 */
export const serverEntry = process.env.GATEWAY_TEST_SERVER_ENTRY ?? path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../dist/main.js");

/** A `node dist/main.js` child process that is listening. */
export interface ServerProcess {
  process: ChildProcess;
  url: string;
  /** Everything it printed so far (stdout and stderr). */
  output(): string;
}

/**
 * Starts `node [nodeArgs] dist/main.js` with `env` (plus PATH) and resolves once it prints its
 * listening address; rejects with its output when it exits first or takes over 30 s.
 */
export function startServerProcess(env: Record<string, string>, nodeArgs: string[] = []): Promise<ServerProcess> {
  if (!existsSync(serverEntry)) throw new Error(`Build the gateway first (pnpm --filter @gateway/gateway build): ${serverEntry} is missing.`);
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...nodeArgs, serverEntry], { env: { PATH: process.env.PATH ?? "", ...env }, stdio: ["ignore", "pipe", "pipe"] });
    let output = "";
    const timer = setTimeout(() => reject(new Error(`the gateway did not start:\n${output}`)), 30_000);
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
      reject(new Error(`the gateway exited with ${code}:\n${output}`));
    });
  });
}

/** SIGTERM, then waits for the exit; resolves with the exit code (null when already gone or killed by a signal). */
export async function stopServerProcess(child: ChildProcess | undefined): Promise<number | null> {
  if (!child || child.exitCode !== null) return child?.exitCode ?? null;
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  child.kill("SIGTERM");
  return exited;
}

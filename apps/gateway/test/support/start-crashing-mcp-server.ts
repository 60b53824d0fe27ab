import { type ChildProcess, spawn } from "node:child_process";
import path from "node:path";
import { fileURLToPath } from "node:url";

const script = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "crashing-mcp-server.mjs");

/** An MCP server in a child process whose `crash` tool ends the process mid-call. */
export interface CrashingMcpServer {
  url: string;
  process: ChildProcess;
  /** Resolves when the process has exited. */
  exited: Promise<void>;
  stop(): Promise<void>;
}

/** Starts `crashing-mcp-server.mjs` and resolves with its URL once it listens. */
export function startCrashingMcpServer(): Promise<CrashingMcpServer> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [script], { stdio: ["ignore", "pipe", "pipe"] });
    const exited = new Promise<void>((done) => child.once("exit", () => done()));
    let output = "";
    const timer = setTimeout(() => reject(new Error(`the MCP server did not start:\n${output}`)), 15_000);
    child.stdout!.on("data", (chunk: Buffer) => {
      output += chunk.toString("utf8");
      const line = output.split("\n").find((candidate) => candidate.startsWith("{"));
      if (line === undefined) return;
      clearTimeout(timer);
      resolve({
        url: (JSON.parse(line) as { url: string }).url,
        process: child,
        exited,
        async stop() {
          if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
          await exited;
        },
      });
    });
    child.stderr!.on("data", (chunk: Buffer) => void (output += chunk.toString("utf8")));
    child.once("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`the MCP server exited with ${code}:\n${output}`));
    });
  });
}

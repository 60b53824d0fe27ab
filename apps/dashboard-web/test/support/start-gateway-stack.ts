import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";

const repositoryRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../../..");

/** `pnpm start` (scripts/start.mjs) running in a child process: the gateway, the dashboard API and the web app. */
export interface GatewayStack {
  /** The dashboard (web app and API), e.g. http://127.0.0.1:40123. */
  dashboardUrl: string;
  /** The gateway's /v1 endpoints. */
  gatewayUrl: string;
  adminEmail: string;
  adminPassword: string;
  /** The stack's data directory (its SQLite database `gateway.db` and `secret.key`), for seeding usage events directly. */
  dataDirectory: string;
  /** Everything the process printed so far. */
  output(): string;
  close(): Promise<void>;
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer().listen(0, "127.0.0.1", () => {
      const address = probe.address();
      probe.close(() => (typeof address === "object" && address ? resolve(address.port) : reject(new Error("no port"))));
    });
  });
}

/**
 * Starts what `pnpm start` starts (both apps built), on a fresh SQLite directory, with the first
 * owner's password fixed and invitations sent to `smtpUrl` (null: no mail transport, `SMTP_URL` unset);
 * `env` adds settings (e.g. a shorter `DASHBOARD_MONITOR_INTERVAL_MS`).
 */
export async function startGatewayStack(options: { smtpUrl: string | null; env?: Record<string, string> }): Promise<GatewayStack> {
  const directory = mkdtempSync(path.join(tmpdir(), "dashboard-web-e2e-"));
  const dashboardPort = await freePort();
  const dashboardUrl = `http://127.0.0.1:${dashboardPort}`;
  const adminPassword = "correct horse battery staple";
  let output = "";
  const child: ChildProcess = spawn(process.execPath, [path.join(repositoryRoot, "scripts/start.mjs")], {
    cwd: directory,
    env: {
      PATH: process.env.PATH ?? "",
      GATEWAY_DATA_DIR: path.join(directory, "data"),
      GATEWAY_PORT: "0",
      GATEWAY_ADMIN_PASSWORD: adminPassword,
      GATEWAY_USAGE_FLUSH_MS: "100",
      DASHBOARD_PORT: String(dashboardPort),
      DASHBOARD_ORIGIN: dashboardUrl,
      ...(options.smtpUrl === null ? {} : { SMTP_URL: options.smtpUrl }),
      ...options.env,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  child.stdout!.on("data", (chunk: Buffer) => (output += chunk.toString("utf8")));
  child.stderr!.on("data", (chunk: Buffer) => (output += chunk.toString("utf8")));
  const deadline = Date.now() + 30_000;
  // Both apps log their own line (in no fixed order).
  while (!/dashboard API listening/.test(output) || !/Gateway listening on/.test(output)) {
    if (child.exitCode !== null || Date.now() > deadline) {
      child.kill("SIGKILL");
      throw new Error(`pnpm start did not come up:\n${output}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  const gatewayUrl = /Gateway listening on (http:\/\/\S+)/.exec(output)?.[1];
  if (!gatewayUrl) throw new Error(`no gateway address in:\n${output}`);
  return {
    dashboardUrl,
    gatewayUrl,
    adminEmail: "admin@gateway.local",
    adminPassword,
    dataDirectory: path.join(directory, "data"),
    output: () => output,
    async close() {
      if (child.exitCode === null) {
        const exited = new Promise((resolve) => child.once("exit", resolve));
        child.kill("SIGTERM");
        await exited;
      }
      rmSync(directory, { recursive: true, force: true });
    },
  };
}

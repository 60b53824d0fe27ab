import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { type Server, createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

// `pnpm start` (scripts/start.mjs): the gateway and the dashboard in one process. Needs both apps built
// (the gateway is a dev dependency of this package, so turbo builds it first).
const startScript = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../../scripts/start.mjs");

let directory: string;
let provider: Server;
let providerUrl: string;
const seenAuthorizations: string[] = [];
let child: ChildProcess;
let output = "";

beforeAll(async () => {
  directory = mkdtempSync(path.join(tmpdir(), "gateway-all-in-one-"));
  provider = createServer((request, response) => {
    seenAuthorizations.push(String(request.headers.authorization));
    request.resume();
    request.on("end", () => {
      const body = JSON.stringify({
        id: "chatcmpl-1",
        object: "chat.completion",
        created: 1_700_000_000,
        model: "gpt-test",
        choices: [{ index: 0, message: { role: "assistant", content: "hello" }, finish_reason: "stop" }],
        usage: { prompt_tokens: 3, completion_tokens: 1, total_tokens: 4 },
      });
      response.writeHead(200, { "content-type": "application/json", "content-length": Buffer.byteLength(body) });
      response.end(body);
    });
  });
  await new Promise<void>((resolve) => provider.listen(0, "127.0.0.1", resolve));
  providerUrl = `http://127.0.0.1:${(provider.address() as AddressInfo).port}/v1`;
  // A fixed free port for the dashboard: its default allowed origins are derived from DASHBOARD_PORT.
  const dashboardPort = await new Promise<number>((resolve) => {
    const probe = createServer().listen(0, "127.0.0.1", () => {
      const { port } = probe.address() as AddressInfo;
      probe.close(() => resolve(port));
    });
  });
  // A data directory that is not ./data, and no GATEWAY_SECRET_KEY: the generated key file must serve both apps.
  child = spawn(process.execPath, [startScript], {
    cwd: directory,
    env: { PATH: process.env.PATH ?? "", GATEWAY_DATA_DIR: path.join(directory, "state"), GATEWAY_PORT: "0", DASHBOARD_PORT: String(dashboardPort) },
    stdio: ["ignore", "pipe", "pipe"],
  });
  child.stdout!.on("data", (chunk: Buffer) => (output += chunk.toString("utf8")));
  child.stderr!.on("data", (chunk: Buffer) => (output += chunk.toString("utf8")));
  const deadline = Date.now() + 30_000;
  // Both apps log their own line (in no fixed order).
  while (!/dashboard API listening/.test(output) || !/Gateway listening on/.test(output)) {
    if (child.exitCode !== null || Date.now() > deadline) throw new Error(`pnpm start did not come up:\n${output}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}, 40_000);

afterAll(async () => {
  if (child?.exitCode === null) {
    const exited = new Promise((resolve) => child.once("exit", resolve));
    child.kill("SIGTERM");
    await exited;
  }
  await new Promise<void>((resolve) => provider?.close(() => resolve()));
  rmSync(directory, { recursive: true, force: true });
});

describe("pnpm start (gateway and dashboard in one process)", () => {
  it("serves a connection created in the dashboard, its credential decrypted by the gateway with the same key", async () => {
    // The log is JSON lines (stdout is not a terminal here): read their messages and fields.
    const lines = output
      .split("\n")
      .filter((line) => line.startsWith("{"))
      .map((line) => JSON.parse(line) as { msg?: string; url?: string });
    const messages = lines.map((line) => line.msg ?? "").join("\n");
    const gatewayUrl = /Gateway listening on (http:\/\/\S+)/.exec(messages)![1]!;
    const dashboardUrl = lines.find((line) => line.msg === "dashboard API listening")!.url!;
    const password = /password: (\S+)/.exec(messages)![1]!;
    const apiKey = /API key \(shown once, store it now\): (gak_\w+)/.exec(messages)![1]!;

    const login = await fetch(`${dashboardUrl}/v1/auth/login`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ email: "admin@gateway.local", password }),
    });
    expect(login.status).toBe(200);
    const cookie = login.headers.get("set-cookie")!.split(";")[0]!;
    const created = await fetch(`${dashboardUrl}/api/connections`, {
      method: "POST",
      headers: { "content-type": "application/json", cookie, origin: dashboardUrl },
      body: JSON.stringify({ name: "shared", kind: "openai", base_url: providerUrl, credential: "sk-created-in-the-dashboard", models: ["vendor/gpt-test"] }),
    });
    expect(created.status, await created.clone().text()).toBe(201);

    const chat = await fetch(`${gatewayUrl}/v1/chat/completions`, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: `Bearer ${apiKey}` },
      body: JSON.stringify({ model: "shared/vendor/gpt-test", messages: [{ role: "user", content: "hi" }] }),
    });
    expect(chat.status, await chat.clone().text()).toBe(200);
    expect(((await chat.json()) as { choices: { message: { content: string } }[] }).choices[0]!.message.content).toBe("hello");
    expect(seenAuthorizations).toEqual(["Bearer sk-created-in-the-dashboard"]);
    expect(output).not.toMatch(/could not be decrypted|SecretBoxError/);
  });
});

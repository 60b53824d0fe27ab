// CPU per request of the gateway with its observability off and on, in one run, against the same
// local mock provider: (1) off: no metrics listener, no traces, log level `warn` (no request
// lines); (2) metrics and request logs (the defaults) with tracing idle (no destination);
// (3) the same plus traces: the organization has an OTLP destination (a local sink), so every
// call makes a call span and an attempt span, exported in batches. Figures are printed, never
// asserted; the machine is shared, so read the three rows against each other. BENCH_GATEWAY_ENTRY
// (default apps/gateway/dist/main.js) runs another build, for A/B comparisons.
import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { closedLoop } from "./load-generator.mjs";
import { measureObservabilityHotPath } from "./observability-hot-path.mjs";
import { freePort, readCpuMicros } from "./process-stats.mjs";

const root = fileURLToPath(new URL("../../", import.meta.url));
const seconds = Number(process.env.BENCH_SECONDS ?? "8");
const concurrency = Number(process.env.BENCH_CONCURRENCY ?? "64");

/** Starts a process and resolves once its output matches; its output is then drained, not kept. */
function startProcess(args, env, readyPattern) {
  const child = spawn(process.execPath, args, { env: { ...process.env, ...env }, stdio: ["ignore", "pipe", "pipe"] });
  let output = "";
  const ready = new Promise((resolve, reject) => {
    const onData = (chunk) => {
      output += chunk.toString();
      const match = readyPattern.exec(output);
      if (!match) return;
      child.stdout.off("data", onData);
      child.stderr.off("data", onData);
      child.stdout.resume();
      child.stderr.resume();
      resolve(match);
    };
    child.stdout.on("data", onData);
    child.stderr.on("data", onData);
    child.once("exit", (code) => reject(new Error(`exited with ${code} before it was ready:\n${output.slice(-2000)}`)));
  });
  return { child, ready };
}

/** A local OTLP/HTTP sink that accepts every export and counts its bytes. */
async function startSink() {
  let exports = 0;
  const server = createServer((request, response) => {
    request.resume();
    request.on("end", () => {
      exports += 1;
      response.writeHead(200, { "content-type": "application/json" }).end("{}");
    });
  });
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { url: `http://127.0.0.1:${server.address().port}/v1/traces`, exports: () => exports, close: () => new Promise((resolve) => server.close(resolve)) };
}

/** Resolves once `url` answers 200; rejects when the process exits first (`exited` rejects). */
async function waitForHealth(url, exited) {
  let failure;
  exited.catch((error) => {
    failure = error;
  });
  for (let attempt = 0; attempt < 300; attempt += 1) {
    if (failure !== undefined) throw failure;
    try {
      const response = await fetch(url);
      if (response.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`${url} did not answer within 30 s`);
}

async function measureVariant({ name, env, mockUrl, sinkUrl }) {
  const workDirectory = mkdtempSync(join(tmpdir(), "gateway-obs-bench-"));
  const apiKey = `gak_${randomBytes(40).toString("base64url").replace(/[^A-Za-z0-9]/g, "").padEnd(43, "a").slice(0, 43)}`;
  const secretKey = randomBytes(32).toString("base64");
  const databaseUrl = `file:${join(workDirectory, "gateway.db")}`;
  const configPath = join(workDirectory, "gateway.json");
  writeFileSync(
    configPath,
    JSON.stringify({
      organizations: [
        {
          slug: "bench",
          name: "Benchmark",
          projects: [{ name: "bench", apiKeys: [{ name: "bench", secret: apiKey }] }],
          connections: [{ name: "mock", kind: "openai", baseUrl: mockUrl, credential: "mock-credential", models: ["bench/model"] }],
        },
      ],
    }),
  );
  const port = await freePort();
  const gateway = startProcess(
    [join(root, process.env.BENCH_GATEWAY_ENTRY ?? "apps/gateway/dist/main.js")],
    {
      DATABASE_URL: databaseUrl,
      GATEWAY_CONFIG: configPath,
      GATEWAY_PORT: String(port),
      GATEWAY_HOST: "127.0.0.1",
      GATEWAY_SECRET_KEY: secretKey,
      GATEWAY_API_KEY: apiKey,
      GATEWAY_ADMIN_PASSWORD: "bench-admin-password",
      GATEWAY_LOG_FORMAT: "json",
      GATEWAY_DELIVERY_REFRESH_MS: "1000",
      NODE_ENV: "production",
      ...env,
    },
    /Gateway listening on/,
  );
  // With the log level at `warn` the listening line is not written: poll /healthz instead.
  gateway.ready.catch(() => {});
  try {
    await waitForHealth(`http://127.0.0.1:${port}/healthz`, gateway.ready);
    if (sinkUrl !== undefined) {
      // The organization's OTLP destination, written as the dashboard would; the gateway reloads destinations every second here.
      const { createDatabase, createTelemetryDestination, loadSecretBoxFromEnvironment } = await import(join(root, "packages/db/dist/index.js"));
      const database = createDatabase({ url: databaseUrl });
      const secretBox = loadSecretBoxFromEnvironment({ env: { GATEWAY_SECRET_KEY: secretKey }, dataDirectory: workDirectory, logger: { info() {}, warn() {} } });
      const organization = await database.prisma.organization.findFirst({ where: { slug: "bench" } });
      await createTelemetryDestination(database, { organizationId: organization.id, name: "sink", kind: "otlp_http", config: { kind: "otlp_http", endpoint: sinkUrl } }, { secretBox });
      await database.close();
      await new Promise((resolve) => setTimeout(resolve, 1500));
    }
    const target = {
      url: `http://127.0.0.1:${port}/v1/chat/completions`,
      headers: { "content-type": "application/json", authorization: `Bearer ${apiKey}` },
      body: JSON.stringify({ model: "mock/bench/model", messages: [{ role: "user", content: "Say hello." }] }),
    };
    await closedLoop({ target, concurrency: 16, durationSeconds: 2 });
    const cpuBefore = readCpuMicros(gateway.child.pid);
    const measured = await closedLoop({ target, concurrency, durationSeconds: seconds });
    const cpuMicros = readCpuMicros(gateway.child.pid) - cpuBefore;
    return { name, requestsPerSecond: measured.requestsPerSecond, errors: measured.errors, cpuMicrosPerRequest: cpuMicros / Math.max(1, measured.ok) };
  } finally {
    gateway.child.kill("SIGTERM");
    await new Promise((resolve) => setTimeout(resolve, 300));
    rmSync(workDirectory, { recursive: true, force: true });
  }
}

/** Runs the three variants one after the other and prints their CPU per request. */
export async function runObservabilityBenchmark() {
  const mock = startProcess([join(root, "scripts/bench/mock-provider-server.mjs")], { MOCK_LATENCY_MS: process.env.MOCK_LATENCY_MS ?? "0" }, /\{"url":"([^"]+)"\}/);
  const [, mockUrl] = await mock.ready;
  const sink = await startSink();
  try {
    const rows = [];
    rows.push(await measureVariant({ name: "observability off", env: { GATEWAY_METRICS_PORT: "off", GATEWAY_TRACES: "off", GATEWAY_LOG_LEVEL: "warn" }, mockUrl }));
    rows.push(await measureVariant({ name: "metrics + request logs (tracing idle)", env: { GATEWAY_METRICS_PORT: "0" }, mockUrl }));
    rows.push(await measureVariant({ name: "metrics + request logs + traces", env: { GATEWAY_METRICS_PORT: "0" }, mockUrl, sinkUrl: sink.url }));
    console.log("| gateway | req/s | errors | CPU us/req | vs off |");
    console.log("| --- | --- | --- | --- | --- |");
    for (const row of rows) {
      const relative = ((row.cpuMicrosPerRequest / rows[0].cpuMicrosPerRequest - 1) * 100).toFixed(1);
      console.log(`| ${row.name} | ${row.requestsPerSecond.toFixed(0)} | ${row.errors} | ${row.cpuMicrosPerRequest.toFixed(0)} | ${row === rows[0] ? "-" : `${relative}%`} |`);
    }
    console.log(`OTLP exports received by the sink: ${sink.exports()}`);
    console.log("\nThe request path's share of metrics and logs, measured in this process (steadier than the rows above on a busy machine):");
    await measureObservabilityHotPath();
    return rows;
  } finally {
    mock.child.kill("SIGTERM");
    await sink.close();
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await runObservabilityBenchmark();

// Benchmarks the gateway's chat completions and Responses paths against a local mock provider:
// added latency over calling the mock directly (p50, p99) at fixed rates, maximum
// throughput, gateway CPU time per request, stream time-to-first-byte overhead, peak RSS, and
// the same CPU and throughput figures for a bare Express 5 + express.json() + undici proxy in
// the same run (the machine is shared: read the gateway against that reference).
import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { closedLoop, openLoop, percentile } from "./load-generator.mjs";
import { readCpuMicros, readPeakRssMegabytes } from "./process-stats.mjs";

const root = fileURLToPath(new URL("../../", import.meta.url));
const seconds = Number(process.env.BENCH_SECONDS ?? "8");
const rates = (process.env.BENCH_RATES ?? "500,1000").split(",").map(Number);
const streamRate = Number(process.env.BENCH_STREAM_RATE ?? "300");
const throughputConcurrency = Number(process.env.BENCH_CONCURRENCY ?? "64");

function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

function startProcess(command, args, env, readyPattern) {
  const child = spawn(command, args, { env: { ...process.env, ...env }, stdio: ["ignore", "pipe", "pipe"] });
  let output = "";
  const ready = new Promise((resolve, reject) => {
    const onData = (chunk) => {
      output += chunk.toString();
      const match = readyPattern.exec(output);
      if (!match) return;
      // Ready: stop keeping the output (the gateway writes a log line per request) but keep draining it.
      child.stdout.off("data", onData);
      child.stderr.off("data", onData);
      child.stdout.resume();
      child.stderr.resume();
      resolve(match);
    };
    child.stdout.on("data", onData);
    child.stderr.on("data", onData);
    child.once("exit", (code) => reject(new Error(`${command} exited with ${code} before it was ready:\n${output.slice(-2000)}`)));
  });
  return { child, ready };
}

async function waitForGateway(url, key) {
  for (let attempt = 0; attempt < 200; attempt += 1) {
    try {
      const response = await fetch(`${url}/v1/models`, { headers: { authorization: `Bearer ${key}` } });
      if (response.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error("the gateway did not become ready");
}

const format = (value, digits = 2) => (Number.isFinite(value) ? value.toFixed(digits) : "n/a");

/**
 * Starts the mock provider, the bare reference proxy and the gateway (with `gatewayNodeArgs`
 * before its entry point), waits until the gateway answers, and returns the request targets.
 */
export async function startBenchEnvironment({ gatewayNodeArgs = [] } = {}) {
  const workDirectory = mkdtempSync(join(tmpdir(), "gateway-bench-"));
  const apiKey = `gak_${randomBytes(40).toString("base64url").replace(/[^A-Za-z0-9]/g, "").padEnd(43, "a").slice(0, 43)}`;
  const mock = startProcess(process.execPath, [join(root, "scripts/bench/mock-provider-server.mjs")], { MOCK_LATENCY_MS: process.env.MOCK_LATENCY_MS ?? "0" }, /\{"url":"([^"]+)"\}/);
  const [, mockUrl] = await mock.ready;
  // The reference point, measured in the same run: bare Express 5 + express.json() + undici.
  const reference = startProcess(process.execPath, [join(root, "scripts/bench/baseline-proxy-server.mjs")], { UPSTREAM_URL: mockUrl }, /\{"url":"([^"]+)"\}/);
  const [, referenceUrl] = await reference.ready;
  const loadBefore = loadavg();

  const configPath = join(workDirectory, "gateway.json");
  writeFileSync(
    configPath,
    JSON.stringify({
      organizations: [
        {
          slug: "bench",
          name: "Benchmark",
          projects: [{ name: "bench", apiKeys: [{ name: "bench", secret: apiKey }] }],
          connections: [{ name: "mock", kind: "openai", baseUrl: mockUrl, credential: "mock-credential", models: ["bench/model"], responsesApi: true }],
        },
      ],
    }),
  );
  const port = await freePort();
  const gateway = startProcess(
    process.execPath,
    [...gatewayNodeArgs, join(root, "apps/gateway/dist/main.js")],
    {
      DATABASE_URL: `file:${join(workDirectory, "gateway.db")}`,
      GATEWAY_CONFIG: configPath,
      GATEWAY_PORT: String(port),
      GATEWAY_HOST: "127.0.0.1",
      GATEWAY_SECRET_KEY: randomBytes(32).toString("base64"),
      GATEWAY_API_KEY: apiKey,
      GATEWAY_ADMIN_PASSWORD: "bench-admin-password",
      NODE_ENV: "production",
    },
    /listening|Listening/,
  );
  const gatewayUrl = `http://127.0.0.1:${port}`;
  const close = async () => {
    gateway.child.kill("SIGTERM");
    mock.child.kill("SIGTERM");
    reference.child.kill("SIGTERM");
    await new Promise((resolve) => setTimeout(resolve, 300));
    rmSync(workDirectory, { recursive: true, force: true });
  };
  try {
    await gateway.ready;
    await waitForGateway(gatewayUrl, apiKey);
  } catch (error) {
    await close();
    throw error;
  }
  const chatBody = (stream) =>
    JSON.stringify({ model: "mock/bench/model", messages: [{ role: "user", content: "Say hello." }], ...(stream ? { stream: true, stream_options: { include_usage: true } } : {}) });
  // `store: false`: the Responses scenario measures the call path, not a database write per answer.
  const responsesBody = (stream) => JSON.stringify({ model: "mock/bench/model", input: "Say hello.", store: false, ...(stream ? { stream: true } : {}) });
  return {
    gateway,
    reference,
    loadBefore,
    close,
    direct: (stream) => ({
      url: `${mockUrl}/chat/completions`,
      headers: { "content-type": "application/json", authorization: "Bearer mock-credential" },
      body: chatBody(stream).replace("mock/bench/model", "bench/model"),
    }),
    viaReference: () => ({
      url: `${referenceUrl}/v1/chat/completions`,
      headers: { "content-type": "application/json" },
      body: chatBody(false),
    }),
    viaGateway: (stream) => ({
      url: `${gatewayUrl}/v1/chat/completions`,
      headers: { "content-type": "application/json", authorization: `Bearer ${apiKey}` },
      body: chatBody(stream),
    }),
    directResponses: (stream) => ({
      url: `${mockUrl}/responses`,
      headers: { "content-type": "application/json", authorization: "Bearer mock-credential" },
      body: responsesBody(stream).replace("mock/bench/model", "bench/model"),
    }),
    viaGatewayResponses: (stream) => ({
      url: `${gatewayUrl}/v1/responses`,
      headers: { "content-type": "application/json", authorization: `Bearer ${apiKey}` },
      body: responsesBody(stream),
    }),
  };
}

/** Closed-loop load on the gateway for profiling; returns throughput, CPU per request and peak RSS. */
export async function runGatewayUnderLoad({ nodeArgs = [], seconds: duration = 8, concurrency = 64 } = {}) {
  const environment = await startBenchEnvironment({ gatewayNodeArgs: nodeArgs });
  try {
    await closedLoop({ target: environment.viaGateway(false), concurrency: 16, durationSeconds: 2 });
    const cpuBefore = readCpuMicros(environment.gateway.child.pid);
    const throughput = await closedLoop({ target: environment.viaGateway(false), concurrency, durationSeconds: duration });
    const cpuMicros = readCpuMicros(environment.gateway.child.pid) - cpuBefore;
    return {
      requestsPerSecond: Math.round(throughput.requestsPerSecond),
      errors: throughput.errors,
      cpuMicrosPerRequest: Math.round(cpuMicros / Math.max(1, throughput.ok)),
      peakRssMegabytes: readPeakRssMegabytes(environment.gateway.child.pid),
    };
  } finally {
    await environment.close();
  }
}

export async function runGatewayBenchmark() {
  const environment = await startBenchEnvironment();
  const { gateway, reference, loadBefore, direct, viaReference, viaGateway, directResponses, viaGatewayResponses } = environment;
  const rows = [];
  try {
    // Warm up both paths (JIT, connection pools).
    await closedLoop({ target: viaGateway(false), concurrency: 16, durationSeconds: 2 });
    await closedLoop({ target: direct(false), concurrency: 16, durationSeconds: 1 });

    await closedLoop({ target: viaReference(), concurrency: 16, durationSeconds: 1 });
    await closedLoop({ target: viaGatewayResponses(false), concurrency: 16, durationSeconds: 1 });
    for (const rate of rates) {
      const baseline = await openLoop({ target: direct(false), rate, durationSeconds: seconds });
      // The bare reference at the same rate: what any Node proxy hop adds on this machine.
      const referenceCpuBefore = readCpuMicros(reference.child.pid);
      const viaBare = await openLoop({ target: viaReference(), rate, durationSeconds: seconds });
      const referenceCpu = readCpuMicros(reference.child.pid) - referenceCpuBefore;
      rows.push({
        scenario: `reference (bare Express + undici), ${rate} req/s`,
        directP50: percentile(baseline.latencies, 0.5),
        directP99: percentile(baseline.latencies, 0.99),
        gatewayP50: percentile(viaBare.latencies, 0.5),
        gatewayP99: percentile(viaBare.latencies, 0.99),
        errors: viaBare.errors,
        cpuMicrosPerRequest: referenceCpu / Math.max(1, viaBare.ok),
      });
      const cpuBefore = readCpuMicros(gateway.child.pid);
      const measured = await openLoop({ target: viaGateway(false), rate, durationSeconds: seconds });
      const cpuMicros = readCpuMicros(gateway.child.pid) - cpuBefore;
      rows.push({
        scenario: `chat, ${rate} req/s open loop`,
        directP50: percentile(baseline.latencies, 0.5),
        directP99: percentile(baseline.latencies, 0.99),
        gatewayP50: percentile(measured.latencies, 0.5),
        gatewayP99: percentile(measured.latencies, 0.99),
        errors: measured.errors,
        cpuMicrosPerRequest: cpuMicros / Math.max(1, measured.ok),
      });
      // The Responses API beside chat, in the same run (native: the mock speaks it).
      const responsesBaseline = await openLoop({ target: directResponses(false), rate, durationSeconds: seconds });
      const responsesCpuBefore = readCpuMicros(gateway.child.pid);
      const responsesMeasured = await openLoop({ target: viaGatewayResponses(false), rate, durationSeconds: seconds });
      const responsesCpu = readCpuMicros(gateway.child.pid) - responsesCpuBefore;
      rows.push({
        scenario: `responses, ${rate} req/s open loop`,
        directP50: percentile(responsesBaseline.latencies, 0.5),
        directP99: percentile(responsesBaseline.latencies, 0.99),
        gatewayP50: percentile(responsesMeasured.latencies, 0.5),
        gatewayP99: percentile(responsesMeasured.latencies, 0.99),
        errors: responsesMeasured.errors,
        cpuMicrosPerRequest: responsesCpu / Math.max(1, responsesMeasured.ok),
      });
    }

    const streamBaseline = await openLoop({ target: direct(true), rate: streamRate, durationSeconds: seconds });
    const streamMeasured = await openLoop({ target: viaGateway(true), rate: streamRate, durationSeconds: seconds });
    rows.push({
      scenario: `stream TTFB, ${streamRate} req/s`,
      directP50: percentile(streamBaseline.firstBytes, 0.5),
      directP99: percentile(streamBaseline.firstBytes, 0.99),
      gatewayP50: percentile(streamMeasured.firstBytes, 0.5),
      gatewayP99: percentile(streamMeasured.firstBytes, 0.99),
      errors: streamMeasured.errors,
      cpuMicrosPerRequest: Number.NaN,
    });

    const responsesStreamBaseline = await openLoop({ target: directResponses(true), rate: streamRate, durationSeconds: seconds });
    const responsesStreamMeasured = await openLoop({ target: viaGatewayResponses(true), rate: streamRate, durationSeconds: seconds });
    rows.push({
      scenario: `responses stream TTFB, ${streamRate} req/s`,
      directP50: percentile(responsesStreamBaseline.firstBytes, 0.5),
      directP99: percentile(responsesStreamBaseline.firstBytes, 0.99),
      gatewayP50: percentile(responsesStreamMeasured.firstBytes, 0.5),
      gatewayP99: percentile(responsesStreamMeasured.firstBytes, 0.99),
      errors: responsesStreamMeasured.errors,
      cpuMicrosPerRequest: Number.NaN,
    });

    const cpuBefore = readCpuMicros(gateway.child.pid);
    const throughput = await closedLoop({ target: viaGateway(false), concurrency: throughputConcurrency, durationSeconds: seconds });
    const cpuMicros = readCpuMicros(gateway.child.pid) - cpuBefore;
    const directThroughput = await closedLoop({ target: direct(false), concurrency: throughputConcurrency, durationSeconds: seconds });
    const peakRss = readPeakRssMegabytes(gateway.child.pid);
    await closedLoop({ target: viaReference(), concurrency: 16, durationSeconds: 1 });
    const referenceCpuBefore = readCpuMicros(reference.child.pid);
    const referenceThroughput = await closedLoop({ target: viaReference(), concurrency: throughputConcurrency, durationSeconds: seconds });
    const referenceCpuMicros = readCpuMicros(reference.child.pid) - referenceCpuBefore;
    const loadAfter = loadavg();

    console.log("\nGateway benchmark (mock provider latency %s ms, %d s per scenario)", process.env.MOCK_LATENCY_MS ?? "0", seconds);
    console.log("| scenario | direct p50 ms | direct p99 ms | via proxy p50 ms | via proxy p99 ms | added p50 ms | added p99 ms | errors | proxy CPU us/req |");
    console.log("| --- | --- | --- | --- | --- | --- | --- | --- | --- |");
    for (const row of rows) {
      console.log(
        `| ${row.scenario} | ${format(row.directP50)} | ${format(row.directP99)} | ${format(row.gatewayP50)} | ${format(row.gatewayP99)} | ${format(row.gatewayP50 - row.directP50)} | ${format(row.gatewayP99 - row.directP99)} | ${row.errors} | ${format(row.cpuMicrosPerRequest, 0)} |`,
      );
    }
    console.log(`\nMax throughput (closed loop, ${throughputConcurrency} connections): gateway ${format(throughput.requestsPerSecond, 0)} req/s (${throughput.errors} errors), mock directly ${format(directThroughput.requestsPerSecond, 0)} req/s`);
    console.log(`Gateway CPU per request at max throughput: ${format(cpuMicros / Math.max(1, throughput.ok), 0)} us`);
    console.log(
      `Reference (bare Express 5 + express.json() + undici, same run): ${format(referenceThroughput.requestsPerSecond, 0)} req/s, ${format(referenceCpuMicros / Math.max(1, referenceThroughput.ok), 0)} us CPU per request`,
    );
    console.log(`Gateway peak RSS: ${format(peakRss, 1)} MB`);
    console.log(`Machine load average (1/5/15 min) before: ${loadBefore.map((value) => value.toFixed(2)).join(" ")}, after: ${loadAfter.map((value) => value.toFixed(2)).join(" ")} (2 cores, shared)`);
    return {
      rows,
      throughput,
      directThroughput,
      cpuMicrosPerRequestAtMax: cpuMicros / Math.max(1, throughput.ok),
      referenceThroughput,
      referenceCpuMicrosPerRequest: referenceCpuMicros / Math.max(1, referenceThroughput.ok),
      peakRssMegabytes: peakRss,
    };
  } finally {
    await environment.close();
  }
}
if (import.meta.url === `file://${process.argv[1]}`) {
  await runGatewayBenchmark();
}

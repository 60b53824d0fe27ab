// Benchmarks the gateway's chat completions and Responses paths against a local mock provider and,
// in the same run, against a bare node:http + undici proxy (the floor: what any Node proxy hop
// costs on this machine right now): latency at fixed open-loop rates (p50, p99), the stream's
// first byte, the gateway's event-loop delay and GCs under that load, maximum throughput, CPU
// time per request, peak RSS, and a bare Express 5 proxy's throughput for reference. The machine
// is shared: read the gateway against the bare proxy measured next to it, not against absolutes.
// BENCH_SECONDS (default 8) per scenario, BENCH_RATES (default 500,1000), BENCH_STREAM_RATE
// (default 300), BENCH_ROUNDS (default 2) rounds of the rate scenarios, BENCH_CONCURRENCY (64);
// BENCH_GATEWAY_ENTRY (default apps/gateway/dist/main.js) runs another build, for A/B comparisons.
// BENCH_NODE_FLAGS (default `--no-memory-reducer --v8-pool-size=1 --max-semi-space-size=4`, the
// gateway's production command line: see its README) are given to the gateway and to both
// reference proxies alike; set it empty to measure without.
import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { closedLoop, openLoop, percentile } from "./load-generator.mjs";
import { freePort, readCpuMicros, readPeakRssMegabytes } from "./process-stats.mjs";

const root = fileURLToPath(new URL("../../", import.meta.url));
const seconds = Number(process.env.BENCH_SECONDS ?? "8");
const rates = (process.env.BENCH_RATES ?? "500,1000").split(",").map(Number);
const streamRate = Number(process.env.BENCH_STREAM_RATE ?? "300");
const throughputConcurrency = Number(process.env.BENCH_CONCURRENCY ?? "64");
const nodeFlags = (process.env.BENCH_NODE_FLAGS ?? "--no-memory-reducer --v8-pool-size=1 --max-semi-space-size=4").split(" ").filter(Boolean);

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
const signed = (value) => (value > 0 ? `+${format(value)}` : format(value));

/**
 * Starts the mock provider, the bare reference proxy and the gateway (with `gatewayNodeArgs`
 * before its entry point), waits until the gateway answers, and returns the request targets.
 * `extraConnections(mockUrl)` adds connections to the gateway's configuration (all served by the mock).
 */
export async function startBenchEnvironment({ gatewayNodeArgs = [], gatewayEnv = {}, extraConnections = () => [] } = {}) {
  const workDirectory = mkdtempSync(join(tmpdir(), "gateway-bench-"));
  const apiKey = `gak_${randomBytes(40).toString("base64url").replace(/[^A-Za-z0-9]/g, "").padEnd(43, "a").slice(0, 43)}`;
  const mock = startProcess(process.execPath, [join(root, "scripts/bench/mock-provider-server.mjs")], { MOCK_LATENCY_MS: process.env.MOCK_LATENCY_MS ?? "0" }, /\{"url":"([^"]+)"\}/);
  const [, mockUrl] = await mock.ready;
  // The reference point, measured in the same run: bare Express 5 + express.json() + undici.
  const reference = startProcess(process.execPath, [...nodeFlags, join(root, "scripts/bench/baseline-proxy-server.mjs")], { UPSTREAM_URL: mockUrl }, /\{"url":"([^"]+)"\}/);
  const [, referenceUrl] = await reference.ready;
  // The floor, measured in the same run: bare node:http + undici (what a Node proxy hop costs).
  const bare = startProcess(process.execPath, [...nodeFlags, join(root, "scripts/bench/bare-proxy-server.mjs")], { UPSTREAM_URL: mockUrl }, /\{"url":"([^"]+)"\}/);
  const [, bareUrl] = await bare.ready;
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
          connections: [
            { name: "mock", kind: "openai", baseUrl: mockUrl, credential: "mock-credential", models: ["bench/model"], responsesApi: true },
            ...extraConnections(mockUrl),
          ],
        },
      ],
    }),
  );
  const port = await freePort();
  const gateway = startProcess(
    process.execPath,
    [...nodeFlags, ...gatewayNodeArgs, join(root, process.env.BENCH_GATEWAY_ENTRY ?? "apps/gateway/dist/main.js")],
    {
      DATABASE_URL: `file:${join(workDirectory, "gateway.db")}`,
      GATEWAY_CONFIG: configPath,
      GATEWAY_PORT: String(port),
      GATEWAY_HOST: "127.0.0.1",
      GATEWAY_SECRET_KEY: randomBytes(32).toString("base64"),
      GATEWAY_API_KEY: apiKey,
      GATEWAY_ADMIN_PASSWORD: "bench-admin-password",
      // The metrics listener on a free port: the bench reads the event-loop delay and GC figures from it.
      GATEWAY_METRICS_PORT: "0",
      GATEWAY_LOG_FORMAT: "json",
      NODE_ENV: "production",
      ...gatewayEnv,
    },
    /^.*Gateway listening on.*$/m,
  );
  const gatewayUrl = `http://127.0.0.1:${port}`;
  const close = async () => {
    gateway.child.kill("SIGTERM");
    mock.child.kill("SIGTERM");
    reference.child.kill("SIGTERM");
    bare.child.kill("SIGTERM");
    await new Promise((resolve) => setTimeout(resolve, 300));
    rmSync(workDirectory, { recursive: true, force: true });
  };
  let metricsUrl = null;
  try {
    const [listeningLine] = await gateway.ready;
    metricsUrl = /"metrics_url":"([^"]+)"/.exec(listeningLine)?.[1] ?? null;
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
    gatewayUrl,
    apiKey,
    reference,
    bare,
    metricsUrl,
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
    viaBare: (stream) => ({
      url: `${bareUrl}/v1/chat/completions`,
      headers: { "content-type": "application/json" },
      body: chatBody(stream),
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

/**
 * Load on the gateway for profiling: closed loop (`concurrency` connections), or open loop at
 * `rate` requests per second when given (then with latency percentiles, the gateway's event-loop
 * delay and GCs over the run); returns throughput, CPU per request and peak RSS.
 */
export async function runGatewayUnderLoad({ nodeArgs = [], seconds: duration = 8, concurrency = 64, rate = null } = {}) {
  const environment = await startBenchEnvironment({ gatewayNodeArgs: nodeArgs });
  try {
    await closedLoop({ target: environment.viaGateway(false), concurrency: 16, durationSeconds: 2 });
    const cpuBefore = readCpuMicros(environment.gateway.child.pid);
    if (rate !== null) {
      const { result, loop } = await withGatewayLoopStats(environment.metricsUrl, () => openLoop({ target: environment.viaGateway(false), rate, durationSeconds: duration }));
      const cpuMicros = readCpuMicros(environment.gateway.child.pid) - cpuBefore;
      return {
        rate,
        p50Ms: percentile(result.latencies, 0.5),
        p99Ms: percentile(result.latencies, 0.99),
        errors: result.errors,
        cpuMicrosPerRequest: Math.round(cpuMicros / Math.max(1, result.ok)),
        eventLoopDelay: loop,
        peakRssMegabytes: readPeakRssMegabytes(environment.gateway.child.pid),
      };
    }
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

/** Reads the gateway's Prometheus exposition into a map of `name{labels}` to value. */
async function scrapeMetrics(metricsUrl) {
  const series = new Map();
  if (metricsUrl === null) return series;
  const text = await (await fetch(metricsUrl)).text();
  for (const line of text.split("\n")) {
    if (line === "" || line.startsWith("#")) continue;
    const at = line.lastIndexOf(" ");
    series.set(line.slice(0, at), Number(line.slice(at + 1)));
  }
  return series;
}

const gcKinds = ["minor", "major", "incremental", "weakcb"];
const loopSamplingMs = 10;

/**
 * Runs `load` with the gateway's event-loop delay histogram and GC counters read around it:
 * a scrape resets the delay histogram (prom-client's monitorEventLoopDelay), the next one reads
 * the window. Returns the load's result and the window's delay p99/max (ms) and GC counts/time.
 */
async function withGatewayLoopStats(metricsUrl, load) {
  const before = await scrapeMetrics(metricsUrl);
  const result = await load();
  const after = await scrapeMetrics(metricsUrl);
  const gc = {};
  for (const kind of gcKinds) {
    const count = (after.get(`nodejs_gc_duration_seconds_count{kind="${kind}"}`) ?? 0) - (before.get(`nodejs_gc_duration_seconds_count{kind="${kind}"}`) ?? 0);
    const seconds = (after.get(`nodejs_gc_duration_seconds_sum{kind="${kind}"}`) ?? 0) - (before.get(`nodejs_gc_duration_seconds_sum{kind="${kind}"}`) ?? 0);
    gc[kind] = { count, ms: seconds * 1000 };
  }
  // The histogram samples every 10 ms (the gateway's eventLoopMonitoringPrecision) and records
  // the whole interval: the delay is what exceeds it.
  const delayMs = (name) => Math.max(0, (after.get(name) ?? Number.NaN) * 1000 - loopSamplingMs);
  return {
    result,
    loop: { p50Ms: delayMs("nodejs_eventloop_lag_p50_seconds"), p99Ms: delayMs("nodejs_eventloop_lag_p99_seconds"), maxMs: delayMs("nodejs_eventloop_lag_max_seconds"), gc },
  };
}

const median = (values) => {
  const sorted = values.filter(Number.isFinite).sort((a, b) => a - b);
  if (sorted.length === 0) return Number.NaN;
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
};
const best = (values) => Math.min(...values.filter(Number.isFinite));

function latencyRow(scenario, baseline, measured, cpuMicros, pick = "latencies") {
  return {
    scenario,
    directP50: percentile(baseline[pick], 0.5),
    directP99: percentile(baseline[pick], 0.99),
    gatewayP50: percentile(measured[pick], 0.5),
    gatewayP99: percentile(measured[pick], 0.99),
    errors: measured.errors,
    cpuMicrosPerRequest: cpuMicros === null ? Number.NaN : cpuMicros / Math.max(1, measured.ok),
  };
}

function printRows(rows) {
  console.log("| scenario | direct p50 ms | direct p99 ms | via proxy p50 ms | via proxy p99 ms | added p50 ms | added p99 ms | errors | proxy CPU us/req |");
  console.log("| --- | --- | --- | --- | --- | --- | --- | --- | --- |");
  for (const row of rows) {
    console.log(
      `| ${row.scenario} | ${format(row.directP50)} | ${format(row.directP99)} | ${format(row.gatewayP50)} | ${format(row.gatewayP99)} | ${format(row.gatewayP50 - row.directP50)} | ${format(row.gatewayP99 - row.directP99)} | ${row.errors} | ${format(row.cpuMicrosPerRequest, 0)} |`,
    );
  }
}

/** Open-loop load on one process, with that process's CPU time per answered request. */
async function measuredOpenLoop(pid, target, rate) {
  const cpuBefore = readCpuMicros(pid);
  const result = await openLoop({ target, rate, durationSeconds: seconds });
  return { result, cpuMicros: readCpuMicros(pid) - cpuBefore };
}

/**
 * `pnpm bench`'s gateway benchmark. BENCH_ROUNDS rounds (default 2) of the rate scenarios (chat
 * at each of BENCH_RATES, open loop, then the stream's first byte), the gateway and the bare
 * node:http + undici proxy one after the other in an order that alternates between rounds (so a
 * drift of the shared machine's load does not always favour the same one); each round prints
 * its table and the gateway-vs-bare differences, then the best and median over rounds.
 */
/** Connections whose chat calls are translated (the caller speaks chat completions, the upstream does not). */
export function translatedConnections(mockUrl) {
  return [
    { name: "claude", kind: "anthropic", baseUrl: mockUrl, credential: "mock-credential", models: ["anthropic/bench-model"] },
    {
      name: "bedrock",
      kind: "bedrock",
      baseUrl: mockUrl,
      credential: JSON.stringify({ accessKeyId: "AKIDBENCHMARK", secretAccessKey: "bench-secret-access-key" }),
      settings: { region: "us-east-1" },
      models: ["anthropic/bench-model-v1:0"],
    },
    { name: "gemini", kind: "gemini", baseUrl: mockUrl, credential: "bench-api-key", models: ["google/gemini-2.5-flash"] },
  ];
}

/** The translated rows: chat completions callers answered by Anthropic, Bedrock (Converse) and Gemini. */
export const translatedTargets = [
  ["OpenAI -> Anthropic translated", "claude/anthropic/bench-model"],
  ["OpenAI -> Bedrock Converse translated", "bedrock/anthropic/bench-model-v1:0"],
  ["OpenAI -> Gemini translated", "gemini/google/gemini-2.5-flash"],
];

export async function runGatewayBenchmark() {
  const environment = await startBenchEnvironment({ extraConnections: translatedConnections });
  const { gateway, reference, bare, metricsUrl, loadBefore, direct, viaReference, viaBare, viaGateway, directResponses, viaGatewayResponses } = environment;
  const rounds = Math.max(1, Number(process.env.BENCH_ROUNDS ?? "2"));
  const roundResults = [];
  try {
    // Warm up every path (JIT, connection pools).
    await closedLoop({ target: viaGateway(false), concurrency: 16, durationSeconds: 2 });
    await closedLoop({ target: viaGateway(true), concurrency: 16, durationSeconds: 1 });
    await closedLoop({ target: direct(false), concurrency: 16, durationSeconds: 1 });
    await closedLoop({ target: viaBare(false), concurrency: 16, durationSeconds: 1 });
    await closedLoop({ target: viaBare(true), concurrency: 16, durationSeconds: 1 });
    await closedLoop({ target: viaGatewayResponses(false), concurrency: 16, durationSeconds: 1 });

    for (let round = 1; round <= rounds; round += 1) {
      const gatewayFirst = round % 2 === 0;
      const rows = [];
      const comparison = { round, rates: [], stream: null };
      for (const rate of rates) {
        const baseline = await openLoop({ target: direct(false), rate, durationSeconds: seconds });
        const runBare = () => measuredOpenLoop(bare.child.pid, viaBare(false), rate);
        const runGateway = () => withGatewayLoopStats(metricsUrl, () => measuredOpenLoop(gateway.child.pid, viaGateway(false), rate));
        let viaBareRun;
        let viaGatewayRun;
        if (gatewayFirst) {
          viaGatewayRun = await runGateway();
          viaBareRun = await runBare();
        } else {
          viaBareRun = await runBare();
          viaGatewayRun = await runGateway();
        }
        const bareRow = latencyRow(`bare node:http + undici, chat ${rate} req/s`, baseline, viaBareRun.result, viaBareRun.cpuMicros);
        const gatewayRow = latencyRow(`gateway, chat ${rate} req/s open loop`, baseline, viaGatewayRun.result.result, viaGatewayRun.result.cpuMicros);
        rows.push(bareRow, gatewayRow);
        comparison.rates.push({
          rate,
          bareP99: bareRow.gatewayP99,
          gatewayP99: gatewayRow.gatewayP99,
          p99DifferenceMs: gatewayRow.gatewayP99 - bareRow.gatewayP99,
          cpuRatio: gatewayRow.cpuMicrosPerRequest / bareRow.cpuMicrosPerRequest,
          loop: viaGatewayRun.loop,
          // How late the generator itself sent (charged to the gateway's latencies): a check on the measurement.
          generatorLatenessP99: percentile(viaGatewayRun.result.result.lateness, 0.99),
        });
        if (round === 1) {
          // The Responses API beside chat (native: the mock speaks it), in the first round only.
          const responsesBaseline = await openLoop({ target: directResponses(false), rate, durationSeconds: seconds });
          const responsesRun = await measuredOpenLoop(gateway.child.pid, viaGatewayResponses(false), rate);
          rows.push(latencyRow(`gateway, responses ${rate} req/s open loop`, responsesBaseline, responsesRun.result, responsesRun.cpuMicros));
        }
      }
      const streamBaseline = await openLoop({ target: direct(true), rate: streamRate, durationSeconds: seconds });
      let streamBare;
      let streamGateway;
      if (gatewayFirst) {
        streamGateway = await openLoop({ target: viaGateway(true), rate: streamRate, durationSeconds: seconds });
        streamBare = await openLoop({ target: viaBare(true), rate: streamRate, durationSeconds: seconds });
      } else {
        streamBare = await openLoop({ target: viaBare(true), rate: streamRate, durationSeconds: seconds });
        streamGateway = await openLoop({ target: viaGateway(true), rate: streamRate, durationSeconds: seconds });
      }
      const streamBareRow = latencyRow(`bare node:http + undici, stream TTFB ${streamRate} req/s`, streamBaseline, streamBare, null, "firstBytes");
      const streamGatewayRow = latencyRow(`gateway, stream TTFB ${streamRate} req/s`, streamBaseline, streamGateway, null, "firstBytes");
      rows.push(streamBareRow, streamGatewayRow);
      comparison.stream = {
        bareP50: streamBareRow.gatewayP50,
        gatewayP50: streamGatewayRow.gatewayP50,
        p50DifferenceMs: streamGatewayRow.gatewayP50 - streamBareRow.gatewayP50,
        upstreamP50: streamBaseline.firstBytes.length === 0 ? Number.NaN : percentile(streamBaseline.firstBytes, 0.5),
      };

      console.log(`\nGateway benchmark, round ${round} of ${rounds} (${gatewayFirst ? "gateway" : "bare proxy"} first; mock provider latency ${process.env.MOCK_LATENCY_MS ?? "0"} ms, ${seconds} s per scenario)`);
      printRows(rows);
      for (const entry of comparison.rates) {
        const { loop } = entry;
        console.log(
          `Round ${round}, ${entry.rate} req/s: gateway p99 ${format(entry.gatewayP99)} ms vs bare ${format(entry.bareP99)} ms (difference ${signed(entry.p99DifferenceMs)} ms); CPU per request x${format(entry.cpuRatio)}; gateway event-loop delay p50 ${format(loop.p50Ms)} / p99 ${format(loop.p99Ms)} / max ${format(loop.maxMs)} ms; GC: ${gcKinds.filter((kind) => loop.gc[kind].count > 0).map((kind) => `${kind} ${loop.gc[kind].count} (${format(loop.gc[kind].ms, 1)} ms)`).join(", ") || "none"}; load generator send lateness p99 ${format(entry.generatorLatenessP99)} ms`,
        );
      }
      console.log(`Round ${round}, stream first byte p50: gateway ${format(comparison.stream.gatewayP50)} ms vs bare ${format(comparison.stream.bareP50)} ms (difference ${signed(comparison.stream.p50DifferenceMs)} ms; upstream ${format(comparison.stream.upstreamP50)} ms)`);
      roundResults.push({ rows, comparison });
    }

    const responsesStreamBaseline = await openLoop({ target: directResponses(true), rate: streamRate, durationSeconds: seconds });
    const responsesStreamMeasured = await openLoop({ target: viaGatewayResponses(true), rate: streamRate, durationSeconds: seconds });
    const responsesStreamRow = latencyRow(`gateway, responses stream TTFB ${streamRate} req/s`, responsesStreamBaseline, responsesStreamMeasured, null, "firstBytes");

    // Translated chat: CPU per request of each provider's translation at the first rate (JSON answers).
    const translatedRate = rates[0];
    const translatedRows = [];
    const translatedBaseline = await openLoop({ target: direct(false), rate: translatedRate, durationSeconds: seconds });
    for (const [label, model] of translatedTargets) {
      const target = { ...viaGateway(false), body: JSON.stringify({ model, messages: [{ role: "user", content: "Say hello." }] }) };
      await closedLoop({ target, concurrency: 16, durationSeconds: 1 });
      const run = await measuredOpenLoop(gateway.child.pid, target, translatedRate);
      translatedRows.push(latencyRow(`gateway, chat ${label} ${translatedRate} req/s`, translatedBaseline, run.result, run.cpuMicros));
    }
    console.log(`\nTranslated chat completions (JSON), ${translatedRate} req/s open loop:`);
    printRows(translatedRows);
    const [anthropicRow, ...cloudRows] = translatedRows;
    for (const row of cloudRows) console.log(`${row.scenario}: CPU per request x${format(row.cpuMicrosPerRequest / anthropicRow.cpuMicrosPerRequest)} of the OpenAI -> Anthropic row`);

    const maxThroughput = async (pid, target) => {
      await closedLoop({ target, concurrency: 16, durationSeconds: 1 });
      const cpuBefore = readCpuMicros(pid);
      const result = await closedLoop({ target, concurrency: throughputConcurrency, durationSeconds: seconds });
      return { ...result, cpuMicrosPerRequest: (readCpuMicros(pid) - cpuBefore) / Math.max(1, result.ok) };
    };
    const throughput = await maxThroughput(gateway.child.pid, viaGateway(false));
    const peakRss = readPeakRssMegabytes(gateway.child.pid);
    const bareThroughput = await maxThroughput(bare.child.pid, viaBare(false));
    const referenceThroughput = await maxThroughput(reference.child.pid, viaReference());
    const directThroughput = await closedLoop({ target: direct(false), concurrency: throughputConcurrency, durationSeconds: seconds });
    const loadAfter = loadavg();

    console.log(`\nGateway benchmark, over ${rounds} round(s): gateway minus bare node:http + undici proxy (best / median)`);
    console.log("| figure | best | median | each round |");
    console.log("| --- | --- | --- | --- |");
    const summary = (label, values, digits = 2) => console.log(`| ${label} | ${format(best(values), digits)} | ${format(median(values), digits)} | ${values.map((value) => format(value, digits)).join(", ")} |`);
    for (const [index, rate] of rates.entries()) {
      const entries = roundResults.map(({ comparison }) => comparison.rates[index]);
      summary(`p99 difference at ${rate} req/s (ms)`, entries.map((entry) => entry.p99DifferenceMs));
      summary(`gateway p99 at ${rate} req/s (ms)`, entries.map((entry) => entry.gatewayP99));
      summary(`bare proxy p99 at ${rate} req/s (ms)`, entries.map((entry) => entry.bareP99));
      summary(`CPU per request ratio at ${rate} req/s (gateway / bare)`, entries.map((entry) => entry.cpuRatio));
      summary(`gateway event-loop delay p99 at ${rate} req/s (ms)`, entries.map((entry) => entry.loop.p99Ms));
      summary(`gateway event-loop delay max at ${rate} req/s (ms)`, entries.map((entry) => entry.loop.maxMs));
    }
    summary(`stream first byte p50 difference at ${streamRate} req/s (ms)`, roundResults.map(({ comparison }) => comparison.stream.p50DifferenceMs));
    console.log("");
    printRows([responsesStreamRow]);
    console.log(`\nMax throughput (closed loop, ${throughputConcurrency} connections), same run:`);
    console.log("| proxy | req/s | errors | CPU us/req | throughput vs bare | CPU/req vs bare |");
    console.log("| --- | --- | --- | --- | --- | --- |");
    for (const [name, figures] of [["gateway", throughput], ["bare node:http + undici", bareThroughput], ["bare Express 5 + express.json() + undici", referenceThroughput]]) {
      console.log(
        `| ${name} | ${format(figures.requestsPerSecond, 0)} | ${figures.errors} | ${format(figures.cpuMicrosPerRequest, 0)} | x${format(figures.requestsPerSecond / bareThroughput.requestsPerSecond)} | x${format(figures.cpuMicrosPerRequest / bareThroughput.cpuMicrosPerRequest)} |`,
      );
    }
    console.log(`Mock provider directly: ${format(directThroughput.requestsPerSecond, 0)} req/s`);
    console.log(`Gateway peak RSS: ${format(peakRss, 1)} MB`);
    console.log(`Machine load average (1/5/15 min) before: ${loadBefore.map((value) => value.toFixed(2)).join(" ")}, after: ${loadAfter.map((value) => value.toFixed(2)).join(" ")} (2 cores, shared)`);
    return { rounds: roundResults, responsesStreamRow, throughput, bareThroughput, referenceThroughput, directThroughput, peakRssMegabytes: peakRss };
  } finally {
    await environment.close();
  }
}
if (import.meta.url === `file://${process.argv[1]}`) {
  await runGatewayBenchmark();
}

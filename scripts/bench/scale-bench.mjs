// `pnpm bench scale`: the control plane at many keys. Per size it seeds, in bulk, N keys over N/10
// projects, 1,000 routes, 1,000 policies (200 with a guardrail rule), 1,000 budgets and 1,000 rate
// limits in one organization (see scale-seed.mjs), starts the gateway and the dashboard API as
// separate processes with the production command line on PostgreSQL + Redis, and measures:
// start time, one snapshot reload alone (load + compile, in this process), key revocation
// (dashboard DELETE -> the gateway answers 401) idle and under load, snapshot reloads per change
// (the gateway's `gateway_snapshot_reloads_total`), the worst latency in the 3 s after a change
// against the steady p99, CPU per request and p99 for one hot key vs traffic spread over many
// keys, the first GET /v1/models of a policy chain, peak RSS, and the dashboard's session call,
// revoke, budget and rate-limit status calls.
//
// Environment (all optional):
//   BENCH_SCALE_KEYS             sizes, comma-separated (default 10000; e.g. 10000,100000,1000000)
//   BENCH_SCALE_DATABASE_URL     PostgreSQL server (default TEST_DATABASE_URL, else
//                                postgresql://postgres@127.0.0.1:5432/postgres); the bench creates
//                                its own schema `bench_scale_<pid>_<random>` and drops it at the end.
//                                `sqlite` runs on a SQLite file instead (small sizes; no Redis).
//   BENCH_SCALE_REDIS_URL        Redis (default TEST_REDIS_URL, else redis://127.0.0.1:6379); the
//                                bench uses the key prefix `bench-scale-<pid>-<random>:` and deletes
//                                only keys under it. `off`: no Redis (gateways poll).
//   BENCH_SCALE_RATE             open-loop load in req/s (default 500)
//   BENCH_SCALE_SECONDS          seconds per steady load scenario (default 10)
//   BENCH_SCALE_REVOCATIONS      idle revocations (default 20)
//   BENCH_SCALE_LOADED_REVOCATIONS  revocations under load, one every 3 s (default 10)
//   BENCH_SCALE_SPREAD_KEYS      keys the spread traffic cycles through (default min(N, 100000))
//   BENCH_SCALE_SESSION_CALLS    dashboard session calls measured (default 20)
//   BENCH_SCALE_LOAD             `off`: skip the load scenarios (hot/spread, revocations under load);
//                                the seed, start, reload, idle revocation and dashboard figures remain
//   BENCH_NODE_FLAGS             the gateway's Node flags (default: its production command line)
//   BENCH_DASHBOARD_NODE_FLAGS   the dashboard's Node flags (default none; e.g. `--cpu-prof` to profile its calls)
// Figures are printed, never asserted. The machine is shared: the load average is printed too.
import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { closedLoop, openLoop, percentile } from "./load-generator.mjs";
import { freePort, readCpuMicros, readPeakRssMegabytes } from "./process-stats.mjs";
import { projectIndexOfKey, scaleAdmin, scaleKeyId, scaleKeySecret, scaleShape, seedScaleControlPlane } from "./scale-seed.mjs";

const root = fileURLToPath(new URL("../../", import.meta.url));
const requireFromDb = createRequire(join(root, "packages/db/package.json"));
const requireFromDashboard = createRequire(join(root, "apps/dashboard-api/package.json"));

const sizes = (process.env.BENCH_SCALE_KEYS ?? "10000").split(",").map((value) => Number(value.trim())).filter((value) => Number.isInteger(value) && value > 0);
const databaseSetting = process.env.BENCH_SCALE_DATABASE_URL ?? process.env.TEST_DATABASE_URL ?? "postgresql://postgres@127.0.0.1:5432/postgres";
const redisSetting = process.env.BENCH_SCALE_REDIS_URL ?? process.env.TEST_REDIS_URL ?? "redis://127.0.0.1:6379";
const rate = Number(process.env.BENCH_SCALE_RATE ?? "500");
const seconds = Number(process.env.BENCH_SCALE_SECONDS ?? "10");
const idleRevocations = Number(process.env.BENCH_SCALE_REVOCATIONS ?? "20");
const loadedRevocations = Number(process.env.BENCH_SCALE_LOADED_REVOCATIONS ?? "10");
const sessionCalls = Number(process.env.BENCH_SCALE_SESSION_CALLS ?? "20");
const nodeFlags = (process.env.BENCH_NODE_FLAGS ?? "--no-memory-reducer --v8-pool-size=1 --max-semi-space-size=4").split(" ").filter(Boolean);
const dashboardNodeFlags = (process.env.BENCH_DASHBOARD_NODE_FLAGS ?? "").split(" ").filter(Boolean);
const changeWindowMs = 3000;
const withLoad = process.env.BENCH_SCALE_LOAD !== "off";

const format = (value, digits = 1) => (Number.isFinite(value) ? value.toFixed(digits) : "n/a");
const sorted = (values) => values.filter(Number.isFinite).sort((a, b) => a - b);
const median = (values) => percentile(sorted(values), 0.5);
const maximum = (values) => {
  const finite = values.filter(Number.isFinite);
  return finite.length === 0 ? Number.NaN : Math.max(...finite);
};
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const elapsedMs = (startNs) => Number(process.hrtime.bigint() - startNs) / 1e6;
const benchStartedNs = process.hrtime.bigint();
/** Progress on stderr (seeding and starting take a while at large sizes). */
const step = (message) => process.stderr.write(`[scale ${format(elapsedMs(benchStartedNs) / 1000, 1)} s] ${message}\n`);

/** What to undo when the bench is interrupted (children to stop, schema and Redis keys to delete). */
const cleanups = new Set();
for (const signal of ["SIGINT", "SIGTERM"]) {
  process.once(signal, async () => {
    for (const cleanup of [...cleanups].reverse()) await cleanup().catch(() => undefined);
    process.exit(130);
  });
}

function startProcess(command, args, env, readyPattern, timeoutMs = 600_000) {
  const child = spawn(command, args, { env: { ...process.env, ...env }, stdio: ["ignore", "pipe", "pipe"] });
  let output = "";
  const ready = new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${args.at(-1)} was not ready after ${timeoutMs} ms:\n${output.slice(-2000)}`)), timeoutMs);
    child.once("exit", () => clearTimeout(timer));
    const onData = (chunk) => {
      output += chunk.toString();
      const match = readyPattern.exec(output);
      if (!match) return;
      clearTimeout(timer);
      child.stdout.off("data", onData);
      child.stderr.off("data", onData);
      child.stdout.resume();
      child.stderr.resume();
      resolve(match);
    };
    child.stdout.on("data", onData);
    child.stderr.on("data", onData);
    child.once("exit", (code) => reject(new Error(`${args.at(-1)} exited with ${code} before it was ready:\n${output.slice(-2000)}`)));
  });
  return { child, ready };
}

async function stopProcess(processHandle) {
  if (processHandle === null || processHandle.child.exitCode !== null) return;
  const exited = new Promise((resolve) => processHandle.child.once("exit", resolve));
  processHandle.child.kill("SIGTERM");
  await Promise.race([exited, sleep(5000)]);
  if (processHandle.child.exitCode === null) processHandle.child.kill("SIGKILL");
}

/** Reads the gateway's Prometheus exposition: the sum of every series of `name`. */
async function readCounter(metricsUrl, name) {
  if (metricsUrl === null) return Number.NaN;
  const text = await (await fetch(metricsUrl)).text();
  let total = 0;
  for (const line of text.split("\n")) {
    if (!line.startsWith(`${name}{`) && !line.startsWith(`${name} `)) continue;
    total += Number(line.slice(line.lastIndexOf(" ") + 1));
  }
  return total;
}

const chatBody = JSON.stringify({ model: "mock/bench/model", messages: [{ role: "user", content: "Say hello." }] });
const chatTarget = (gatewayUrl, secret) => ({ url: `${gatewayUrl}/v1/chat/completions`, headers: { "content-type": "application/json", authorization: `Bearer ${secret}` }, body: chatBody });

/** Calls the gateway with `secret` until it answers 401; resolves the time since `startNs` (ms). */
async function waitForRefusal(gatewayUrl, secret, startNs, timeoutMs = 30_000) {
  const target = chatTarget(gatewayUrl, secret);
  while (elapsedMs(startNs) < timeoutMs) {
    const response = await fetch(target.url, { method: "POST", headers: target.headers, body: target.body });
    await response.arrayBuffer();
    if (response.status === 401) return elapsedMs(startNs);
    await sleep(2);
  }
  return Number.NaN;
}

/** The dashboard as a signed-in owner: timed calls with the session cookie. */
async function signIn(dashboardUrl) {
  const response = await fetch(`${dashboardUrl}/v1/auth/login`, {
    method: "POST",
    headers: { "content-type": "application/json", "sec-fetch-site": "same-origin" },
    body: JSON.stringify({ email: scaleAdmin.email, password: scaleAdmin.password }),
  });
  if (response.status !== 200) throw new Error(`dashboard login answered ${response.status}: ${await response.text()}`);
  const cookie = /gateway_session=[^;]+/.exec(response.headers.get("set-cookie") ?? "")?.[0];
  if (!cookie) throw new Error("dashboard login set no session cookie");
  return async function call(method, path) {
    const startNs = process.hrtime.bigint();
    const answer = await fetch(`${dashboardUrl}${path}`, { method, headers: { cookie, "sec-fetch-site": "same-origin" } });
    const body = await answer.text();
    return { status: answer.status, ms: elapsedMs(startNs), body };
  };
}

async function timedCalls(call, method, path, count) {
  const times = [];
  for (let index = 0; index < count; index += 1) {
    const answer = await call(method, path);
    if (answer.status !== 200) throw new Error(`${method} ${path} answered ${answer.status}: ${answer.body.slice(0, 300)}`);
    times.push(answer.ms);
  }
  return times;
}

/** Opens the bench's own database (a fresh PostgreSQL schema, or a SQLite file) and how to drop it. */
async function openBenchDatabase(workDirectory, tag) {
  if (databaseSetting === "sqlite") {
    return { url: `file:${join(workDirectory, "gateway.db")}`, drop: async () => {} };
  }
  const pg = requireFromDb("pg");
  const schema = `bench_scale_${tag}`;
  const admin = new pg.Client({ connectionString: databaseSetting });
  await admin.connect();
  await admin.query(`CREATE SCHEMA "${schema}"`);
  await admin.end();
  const url = new URL(databaseSetting);
  url.searchParams.set("schema", schema);
  return {
    url: url.href,
    drop: async () => {
      const client = new pg.Client({ connectionString: databaseSetting });
      await client.connect();
      await client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
      await client.end();
    },
  };
}

/** Deletes the bench's Redis keys (only those under its own prefix). */
async function deleteRedisKeys(prefix) {
  if (redisSetting === "off" || databaseSetting === "sqlite") return;
  const Redis = requireFromDashboard("ioredis");
  const redis = new Redis(redisSetting, { maxRetriesPerRequest: 1 });
  try {
    let cursor = "0";
    do {
      const [next, keys] = await redis.scan(cursor, "MATCH", `${prefix}*`, "COUNT", 1000);
      cursor = next;
      if (keys.length > 0) await redis.del(...keys);
    } while (cursor !== "0");
  } finally {
    redis.disconnect();
  }
}

/** One reload alone, in this process: the snapshot load and its compilation (median of 3). */
async function measureReloadAlone(url, secretKey) {
  const db = await import(pathToFileURL(join(root, "packages/db/dist/index.js")).href);
  const pipeline = await import(pathToFileURL(join(root, "packages/pipeline/dist/index.js")).href);
  const database = db.openDataPlaneDatabase({ url });
  const secretBox = db.loadSecretBoxFromEnvironment({ env: { GATEWAY_SECRET_KEY: secretKey }, dataDirectory: tmpdir(), logger: { info() {}, warn() {} } });
  const loads = [];
  const compiles = [];
  try {
    for (let round = 0; round < 3; round += 1) {
      let startNs = process.hrtime.bigint();
      const snapshot = await db.loadControlPlaneSnapshot(database, { secretBox });
      loads.push(elapsedMs(startNs));
      startNs = process.hrtime.bigint();
      pipeline.compileSnapshot(snapshot);
      compiles.push(elapsedMs(startNs));
    }
  } finally {
    await database.close();
  }
  return { loadMs: median(loads), compileMs: median(compiles) };
}

/**
 * Revokes keys one after the other through the dashboard; per key: the DELETE's own time and the
 * time until the gateway refuses the key. `spacingMs` (under load) starts one every so often.
 */
async function revokeKeys({ call, gatewayUrl, keyIndexes, spacingMs = 0, onChange = () => {} }) {
  const results = [];
  for (const keyIndex of keyIndexes) {
    const startedNs = process.hrtime.bigint();
    onChange(startedNs);
    const deletion = await call("DELETE", `/api/api-keys/${scaleKeyId(keyIndex)}`);
    if (deletion.status !== 200 && deletion.status !== 204) throw new Error(`revoking ${scaleKeyId(keyIndex)} answered ${deletion.status}: ${deletion.body.slice(0, 300)}`);
    const refusedMs = await waitForRefusal(gatewayUrl, scaleKeySecret(keyIndex), startedNs);
    results.push({ deleteMs: deletion.ms, refusedMs });
    const rest = spacingMs - elapsedMs(startedNs);
    if (rest > 0) await sleep(rest);
    else await sleep(200);
  }
  return results;
}

/** Open-loop load on the gateway with its CPU per answered request. */
async function measuredLoad(gatewayPid, target, durationSeconds, onAnswer = null) {
  const cpuBefore = readCpuMicros(gatewayPid);
  const result = await openLoop({ target, rate, durationSeconds, onAnswer });
  const cpuMicros = readCpuMicros(gatewayPid) - cpuBefore;
  return { result, cpuMicrosPerRequest: cpuMicros / Math.max(1, result.ok), p99Ms: percentile(result.latencies, 0.99), p50Ms: percentile(result.latencies, 0.5) };
}

/** Runs the whole measurement at one size; returns the figures. */
async function measureSize(keyCount) {
  const tag = `${process.pid}_${randomBytes(4).toString("hex")}`;
  const workDirectory = mkdtempSync(join(tmpdir(), "scale-bench-"));
  const secretKey = randomBytes(32).toString("base64");
  const redisPrefix = `bench-scale-${tag}:`;
  const useRedis = redisSetting !== "off" && databaseSetting !== "sqlite";
  const figures = { keyCount, loadBefore: loadavg() };
  let mock = null;
  let gateway = null;
  let dashboard = null;
  const benchDatabase = await openBenchDatabase(workDirectory, tag);
  const cleanup = async () => {
    await stopProcess(dashboard);
    await stopProcess(gateway);
    await stopProcess(mock);
    await benchDatabase.drop().catch((error) => console.error(`dropping the bench schema failed: ${error.message}`));
    await deleteRedisKeys(redisPrefix).catch((error) => console.error(`deleting the bench's Redis keys failed: ${error.message}`));
    rmSync(workDirectory, { recursive: true, force: true });
  };
  cleanups.add(cleanup);
  try {
    mock = startProcess(process.execPath, [join(root, "scripts/bench/mock-provider-server.mjs")], { MOCK_LATENCY_MS: process.env.MOCK_LATENCY_MS ?? "0" }, /\{"url":"([^"]+)"\}/);
    const [, mockUrl] = await mock.ready;
    step(`${keyCount} keys: migrating and seeding`);

    // Seed.
    const db = await import(pathToFileURL(join(root, "packages/db/dist/index.js")).href);
    const secretBox = db.loadSecretBoxFromEnvironment({ env: { GATEWAY_SECRET_KEY: secretKey }, dataDirectory: workDirectory, logger: { info() {}, warn() {} } });
    let startNs = process.hrtime.bigint();
    const database = db.createDatabase({ url: benchDatabase.url, dataDirectory: workDirectory });
    await database.migrate();
    const migrateMs = elapsedMs(startNs);
    startNs = process.hrtime.bigint();
    const seeded = await seedScaleControlPlane({ db, database, secretBox, keyCount, mockUrl });
    figures.seedMs = elapsedMs(startNs);
    figures.migrateMs = migrateMs;
    figures.seeded = seeded;
    await database.close();

    step("one reload alone");
    figures.reloadAlone = await measureReloadAlone(benchDatabase.url, secretKey);

    // Start the gateway and the dashboard with the production command line.
    const sharedEnv = {
      DATABASE_URL: benchDatabase.url,
      GATEWAY_SECRET_KEY: secretKey,
      GATEWAY_REDIS_KEY_PREFIX: redisPrefix,
      ...(useRedis ? { REDIS_URL: redisSetting } : { REDIS_URL: "" }),
      NODE_ENV: "production",
    };
    step("starting the gateway");
    const gatewayPort = await freePort();
    const gatewayUrl = `http://127.0.0.1:${gatewayPort}`;
    startNs = process.hrtime.bigint();
    gateway = startProcess(
      process.execPath,
      [...nodeFlags, join(root, "apps/gateway/dist/main.js")],
      { ...sharedEnv, GATEWAY_PORT: String(gatewayPort), GATEWAY_HOST: "127.0.0.1", GATEWAY_METRICS_PORT: "0", GATEWAY_LOG_FORMAT: "json", GATEWAY_DATA_DIR: workDirectory },
      /^.*Gateway listening on.*$/m,
    );
    const [listeningLine] = await gateway.ready;
    figures.gatewayListeningMs = elapsedMs(startNs);
    const metricsUrl = /"metrics_url":"([^"]+)"/.exec(listeningLine)?.[1] ?? null;
    const hotSecret = scaleKeySecret(1);
    for (;;) {
      const response = await fetch(`${gatewayUrl}/v1/chat/completions`, { method: "POST", ...chatTarget(gatewayUrl, hotSecret) });
      await response.arrayBuffer();
      if (response.status === 200) break;
      if (elapsedMs(startNs) > 600_000) throw new Error(`the gateway did not serve the hot key (last status ${response.status})`);
      await sleep(50);
    }
    figures.gatewayFirstAnswerMs = elapsedMs(startNs);

    // GET /v1/models: the first call of a policy chain after the start, then the same key again
    // (keys 2..21 open projects 2..21, each with its own policy: 20 chains).
    step("models lists");
    figures.modelsFirstMs = [];
    figures.modelsAgainMs = [];
    for (let keyIndex = 2; keyIndex <= Math.min(21, keyCount); keyIndex += 1) {
      for (const times of [figures.modelsFirstMs, figures.modelsAgainMs]) {
        const callNs = process.hrtime.bigint();
        const response = await fetch(`${gatewayUrl}/v1/models`, { headers: { authorization: `Bearer ${scaleKeySecret(keyIndex)}` } });
        await response.arrayBuffer();
        if (response.status !== 200) throw new Error(`GET /v1/models answered ${response.status}`);
        times.push(elapsedMs(callNs));
      }
    }

    step("starting the dashboard");
    const dashboardPort = await freePort();
    startNs = process.hrtime.bigint();
    dashboard = startProcess(
      process.execPath,
      [...dashboardNodeFlags, join(root, "apps/dashboard-api/dist/main.js")],
      { ...sharedEnv, DASHBOARD_PORT: String(dashboardPort), DASHBOARD_HOST: "127.0.0.1", DASHBOARD_WEB_ROOT: "off", DASHBOARD_LOG_FORMAT: "json", GATEWAY_DATA_DIR: workDirectory },
      /dashboard API listening/,
    );
    await dashboard.ready;
    figures.dashboardListeningMs = elapsedMs(startNs);
    const dashboardUrl = `http://127.0.0.1:${dashboardPort}`;
    const call = await signIn(dashboardUrl);

    step("dashboard calls");
    // Dashboard calls at this many projects.
    await timedCalls(call, "GET", "/v1/auth/session", 3);
    // The dashboard's CPU per call too: a figure the machine's load inflates far less than the times.
    const dashboardCpuMs = async (calls) => {
      const before = readCpuMicros(dashboard.child.pid);
      const times = await calls();
      return { times, cpuMsPerCall: (readCpuMicros(dashboard.child.pid) - before) / 1000 / times.length };
    };
    ({ times: figures.sessionMs, cpuMsPerCall: figures.sessionCpuMs } = await dashboardCpuMs(() => timedCalls(call, "GET", "/v1/auth/session", sessionCalls)));
    // The first status read rebuilds the counters that traffic never touched (cold); then steady.
    [figures.budgetStatusColdMs] = await timedCalls(call, "GET", "/api/usage/budgets", 1);
    ({ times: figures.budgetStatusMs, cpuMsPerCall: figures.budgetStatusCpuMs } = await dashboardCpuMs(() => timedCalls(call, "GET", "/api/usage/budgets", 5)));
    [figures.rateLimitStatusColdMs] = await timedCalls(call, "GET", "/api/usage/rate-limits", 1);
    ({ times: figures.rateLimitStatusMs, cpuMsPerCall: figures.rateLimitStatusCpuMs } = await dashboardCpuMs(() => timedCalls(call, "GET", "/api/usage/rate-limits", 5)));

    // Revocations, idle: keys from the end (never the hot key or the spread traffic's keys).
    const spreadCount = Math.min(keyCount - idleRevocations - loadedRevocations - 1, Number(process.env.BENCH_SCALE_SPREAD_KEYS ?? "100000"));
    let nextRevoked = keyCount;
    const takeKeys = (count) => Array.from({ length: count }, () => nextRevoked--);
    step("idle revocations");
    const reloadsBefore = await readCounter(metricsUrl, "gateway_snapshot_reloads_total");
    const deltasBefore = await readCounter(metricsUrl, "gateway_snapshot_deltas_total");
    const revocationCpuBefore = readCpuMicros(gateway.child.pid);
    const dashboardCpuBefore = readCpuMicros(dashboard.child.pid);
    const idle = await revokeKeys({ call, gatewayUrl, keyIndexes: takeKeys(idleRevocations) });
    // The dashboard's CPU per DELETE (it does nothing else meanwhile): what the machine's load inflates least.
    figures.deleteCpuMs = (readCpuMicros(dashboard.child.pid) - dashboardCpuBefore) / 1000 / Math.max(1, idle.length);
    // The gateway's CPU per idle revocation: applying the change, plus the calls that wait for the 401.
    figures.gatewayCpuPerRevocationMs = (readCpuMicros(gateway.child.pid) - revocationCpuBefore) / 1000 / Math.max(1, idle.length);
    await sleep(1500);
    figures.reloadsPerChange = (await readCounter(metricsUrl, "gateway_snapshot_reloads_total") - reloadsBefore) / Math.max(1, idle.length);
    figures.deltasPerChange = (await readCounter(metricsUrl, "gateway_snapshot_deltas_total") - deltasBefore) / Math.max(1, idle.length);
    figures.idleRevocations = idle;

    if (!withLoad) {
      figures.gatewayPeakRssMb = readPeakRssMegabytes(gateway.child.pid);
      figures.dashboardPeakRssMb = readPeakRssMegabytes(dashboard.child.pid);
      figures.loadAfter = loadavg();
      return figures;
    }
    step("steady load, hot then spread");
    // Steady load: one hot key, then traffic spread over many keys.
    await closedLoop({ target: chatTarget(gatewayUrl, hotSecret), concurrency: 16, durationSeconds: 2 });
    figures.hot = await measuredLoad(gateway.child.pid, chatTarget(gatewayUrl, hotSecret), seconds);
    // Spread: keys 2..spreadCount+1 in an order that walks the projects (each key in turn, no repeats until all were used).
    const spreadTargets = Array.from({ length: Math.max(1, spreadCount) }, (_, offset) => chatTarget(gatewayUrl, scaleKeySecret(offset + 2)));
    await closedLoop({ target: spreadTargets, concurrency: 16, durationSeconds: 2 });
    figures.spread = await measuredLoad(gateway.child.pid, spreadTargets, seconds);
    figures.spreadKeys = spreadTargets.length;
    figures.spreadProjects = new Set(spreadTargets.map((_, offset) => projectIndexOfKey(offset + 2, seeded.projectCount))).size;

    // Under load: revocations every 3 s while the hot key runs at `rate`; the worst latency of
    // the calls scheduled in the 3 s after each change.
    step("revocations under load");
    const changes = [];
    const timeline = [];
    // One change every 3 s, or every 1.5x the slowest idle revocation when that is longer, so each change is done before the next.
    const spacingMs = Math.max(changeWindowMs, Math.ceil(maximum(idle.map((entry) => entry.refusedMs)) * 1.5) || 0);
    const loadSeconds = Math.ceil((loadedRevocations * spacingMs + changeWindowMs) / 1000) + 1;
    const loadRun = measuredLoad(gateway.child.pid, chatTarget(gatewayUrl, hotSecret), loadSeconds, (scheduledNs, latencyMs) => timeline.push([scheduledNs, latencyMs]));
    await sleep(1000);
    const loaded = await revokeKeys({ call, gatewayUrl, keyIndexes: takeKeys(loadedRevocations), spacingMs, onChange: (ns) => changes.push(ns) });
    const underLoad = await loadRun;
    const windowNs = BigInt(changeWindowMs) * 1_000_000n;
    const worstAfterChange = changes.map((changeNs) => maximum(timeline.filter(([scheduledNs]) => scheduledNs >= changeNs && scheduledNs < changeNs + windowNs).map(([, latencyMs]) => latencyMs)));
    figures.loadedRevocations = loaded;
    figures.underLoad = underLoad;
    figures.worstAfterChange = worstAfterChange;

    figures.gatewayPeakRssMb = readPeakRssMegabytes(gateway.child.pid);
    figures.dashboardPeakRssMb = readPeakRssMegabytes(dashboard.child.pid);
    figures.loadAfter = loadavg();
    return figures;
  } finally {
    cleanups.delete(cleanup);
    await cleanup();
  }
}

function printFigures(figures) {
  const { seeded } = figures;
  const idleRefused = figures.idleRevocations.map((entry) => entry.refusedMs);
  const loaded = figures.loadedRevocations ?? [];
  const loadedRefused = loaded.map((entry) => entry.refusedMs);
  const deletes = [...figures.idleRevocations, ...loaded].map((entry) => entry.deleteMs);
  const none = { p99Ms: Number.NaN, cpuMicrosPerRequest: Number.NaN, result: { errors: "-" } };
  const { hot = none, spread = none, underLoad = none, worstAfterChange = [] } = figures;
  const rows = [
    ["seed (migrate + bulk insert)", `${format(figures.migrateMs, 0)} + ${format(figures.seedMs, 0)} ms`],
    ["gateway start: listening / first answer", `${format(figures.gatewayListeningMs, 0)} / ${format(figures.gatewayFirstAnswerMs, 0)} ms`],
    ["dashboard start: listening", `${format(figures.dashboardListeningMs, 0)} ms`],
    [`GET /v1/models, first call of a chain / same key again, median / max (${figures.modelsFirstMs.length} chains)`, `${format(median(figures.modelsFirstMs), 1)} / ${format(maximum(figures.modelsFirstMs), 1)} ms, ${format(median(figures.modelsAgainMs), 1)} / ${format(maximum(figures.modelsAgainMs), 1)} ms`],
    ["one reload alone: load + compile", `${format(figures.reloadAlone.loadMs, 0)} + ${format(figures.reloadAlone.compileMs, 0)} ms`],
    [`revocation idle, median / max (${idleRefused.length})`, `${format(median(idleRefused), 0)} / ${format(maximum(idleRefused), 0)} ms`],
    [`revocation under ${rate} req/s, median / max (${loadedRefused.length})`, `${format(median(loadedRefused), 0)} / ${format(maximum(loadedRefused), 0)} ms`, "load"],
    ["full snapshot reloads / deltas applied, per change (idle)", `${format(figures.reloadsPerChange, 2)} / ${format(figures.deltasPerChange, 2)}`],
    ["gateway CPU per idle revocation (the change, and the calls polling for the 401)", `${format(figures.gatewayCpuPerRevocationMs, 1)} ms`],
    [`steady p99, hot key at ${rate} req/s`, `${format(hot.p99Ms, 2)} ms`, "load"],
    ["worst latency in the 3 s after a change, median / max over changes", `${format(median(worstAfterChange), 1)} / ${format(maximum(worstAfterChange), 1)} ms`, "load"],
    ["p99 under load with changes", `${format(underLoad.p99Ms, 2)} ms (errors ${underLoad.result.errors})`, "load"],
    [`CPU per request, hot / spread over ${figures.spreadKeys} keys (${figures.spreadProjects} projects)`, `${format(hot.cpuMicrosPerRequest, 0)} / ${format(spread.cpuMicrosPerRequest, 0)} us`, "load"],
    ["p99, hot / spread", `${format(hot.p99Ms, 2)} / ${format(spread.p99Ms, 2)} ms (errors ${hot.result.errors} / ${spread.result.errors})`, "load"],
    ["peak RSS, gateway / dashboard", `${format(figures.gatewayPeakRssMb, 0)} / ${format(figures.dashboardPeakRssMb, 0)} MB`],
    [`dashboard session call at ${seeded.projectCount} projects, median / max (${figures.sessionMs.length})`, `${format(median(figures.sessionMs), 1)} / ${format(maximum(figures.sessionMs), 1)} ms (dashboard CPU ${format(figures.sessionCpuMs, 1)} ms per call)`],
    [`dashboard key revocation (DELETE) at ${seeded.projectCount} projects, median / max (${deletes.length})`, `${format(median(deletes), 1)} / ${format(maximum(deletes), 1)} ms (dashboard CPU ${format(figures.deleteCpuMs, 1)} ms per idle DELETE)`],
    [`GET /api/usage/budgets (${seeded.budgetCount} budgets), first (counters rebuilt) / median / max`, `${format(figures.budgetStatusColdMs, 1)} / ${format(median(figures.budgetStatusMs), 1)} / ${format(maximum(figures.budgetStatusMs), 1)} ms (dashboard CPU ${format(figures.budgetStatusCpuMs, 1)} ms per steady call)`],
    [`GET /api/usage/rate-limits (${seeded.limitCount} limits), first / median / max`, `${format(figures.rateLimitStatusColdMs, 1)} / ${format(median(figures.rateLimitStatusMs), 1)} / ${format(maximum(figures.rateLimitStatusMs), 1)} ms (dashboard CPU ${format(figures.rateLimitStatusCpuMs, 1)} ms per steady call)`],
  ];
  console.log(
    `\n### ${figures.keyCount} keys, ${seeded.projectCount} projects, ${scaleShape.routes} routes, ${seeded.policyCount} policies (${Math.min(scaleShape.guardrailPolicies, seeded.policyCount - 1)} with guardrails), ${seeded.budgetCount} budgets, ${seeded.limitCount} rate limits (${databaseSetting === "sqlite" ? "SQLite" : "PostgreSQL"}${redisSetting !== "off" && databaseSetting !== "sqlite" ? " + Redis" : ""})`,
  );
  console.log("| figure | value |");
  console.log("| --- | --- |");
  // Without the load scenarios (BENCH_SCALE_LOAD=off) their rows are left out.
  for (const [label, value, kind] of rows) if (kind !== "load" || figures.hot !== undefined) console.log(`| ${label} | ${value} |`);
  console.log(`Machine load average (1/5/15 min) before: ${figures.loadBefore.map((value) => value.toFixed(2)).join(" ")}, after: ${figures.loadAfter.map((value) => value.toFixed(2)).join(" ")} (2 cores, shared)`);
}

/** `pnpm bench scale`: every size of BENCH_SCALE_KEYS in turn. */
export async function runScaleBenchmark() {
  if (sizes.length === 0) throw new Error("BENCH_SCALE_KEYS names no size (e.g. 10000,100000).");
  const results = [];
  for (const keyCount of sizes) {
    const figures = await measureSize(keyCount);
    printFigures(figures);
    results.push(figures);
  }
  return results;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  await runScaleBenchmark();
}

// The cost of usage durability: the gateway at 1,000 req/s (open loop, chat completions against the
// local mock provider, embedded SQLite) with GATEWAY_USAGE_DURABILITY=memory, with =journal (an
// append per call, fdatasync every 100 ms, a replay on start), and with the SQLite usage writer
// back on the event loop (GATEWAY_USAGE_WRITER_THREAD=off) for the writer thread's share. Reuses
// the gateway benchmark's environment and load generator; figures are printed, never asserted.
import { mkdtempSync, rmSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { performance } from "node:perf_hooks";
import { startBenchEnvironment } from "./gateway-bench.mjs";
import { closedLoop, openLoop, percentile } from "./load-generator.mjs";
import { readCpuMicros, readPeakRssMegabytes } from "./process-stats.mjs";

const seconds = Number(process.env.BENCH_SECONDS ?? "8");
const rate = Number(process.env.BENCH_DURABILITY_RATE ?? "1000");

const variants = [
  { name: "memory (default), writer thread", env: { GATEWAY_USAGE_DURABILITY: "memory", GATEWAY_USAGE_WRITER_THREAD: "on" } },
  { name: "journal, writer thread", env: { GATEWAY_USAGE_DURABILITY: "journal", GATEWAY_USAGE_WRITER_THREAD: "on" } },
  { name: "memory, writes on the event loop", env: { GATEWAY_USAGE_DURABILITY: "memory", GATEWAY_USAGE_WRITER_THREAD: "off" } },
];

const format = (value, digits = 2) => (Number.isFinite(value) ? value.toFixed(digits) : "n/a");

/** Starts the bench environment with the variant's settings and its own data directory. */
async function startVariant(env) {
  const dataDirectory = mkdtempSync(join(tmpdir(), "gateway-durability-bench-"));
  try {
    const environment = await startBenchEnvironment({ gatewayEnv: { ...env, GATEWAY_DATA_DIR: dataDirectory } });
    return {
      environment,
      close: async () => {
        await environment.close();
        rmSync(dataDirectory, { recursive: true, force: true });
      },
    };
  } catch (error) {
    rmSync(dataDirectory, { recursive: true, force: true });
    throw error;
  }
}

const root = new URL("../../", import.meta.url);

function sampleEvent(index) {
  return {
    requestId: `req_bench_${index}`, traceId: null, occurredAt: new Date(), organizationId: "org_bench", projectId: "prj_bench", apiKeyId: "key_bench",
    userId: null, endpoint: "chat_completions", requestedModel: "mock/bench/model", routeId: null, provider: "mock", model: "bench/model", status: 200,
    errorCode: null, inputTokens: 12, outputTokens: 9, cacheReadTokens: 0, cacheWriteTokens: 0, reasoningTokens: 0, costMicros: 21, budgetOutcome: null,
    latencyMs: 3, timeToFirstByteMs: 3, clientLabel: "undici", sessionId: null, guardrailFlags: [], content: null,
  };
}

/**
 * In-process figures that the shared machine's load disturbs less than latencies: the journal's
 * cost per event (its append runs on the request path) and how long one usage batch holds the
 * event loop when SQLite writes it there, against handing it to the writer thread.
 */
async function measureUsageWriteCosts() {
  const { openUsageJournal } = await import(new URL("packages/pipeline/dist/index.js", root).href);
  const { openDataPlaneDatabase, openUsageWriterThread, resolveDatabaseUrl, timeOrderedId, writeUsageBatch } = await import(
    new URL("packages/db/dist/data-plane.js", root).href
  );
  const directory = mkdtempSync(join(tmpdir(), "gateway-usage-costs-"));
  try {
    const journal = openUsageJournal({ directory: join(directory, "usage-journal"), createId: timeOrderedId });
    const events = Array.from({ length: 20_000 }, (_, index) => sampleEvent(index));
    const appendStarted = performance.now();
    for (const event of events) journal.append(event);
    const appendMicros = ((performance.now() - appendStarted) * 1000) / events.length;
    journal.acknowledge(events);
    await journal.close();

    const database = openDataPlaneDatabase({ dataDirectory: directory });
    await database.migrate();
    const thread = openUsageWriterThread({ url: resolveDatabaseUrl(undefined, directory).url });
    /** Mean time the calling thread is busy per batch (the write's synchronous part). */
    const blockedPerBatch = async (write, size) => {
      let total = 0;
      for (let batch = 0; batch < 10; batch += 1) {
        const events = Array.from({ length: size }, (_, index) => sampleEvent(batch * size + index));
        const started = performance.now();
        const written = write(events);
        total += performance.now() - started;
        await written;
      }
      return total / 10;
    };
    await thread.write([sampleEvent(-1)]);
    const inline100 = await blockedPerBatch((events) => writeUsageBatch(database, events), 100);
    const inline500 = await blockedPerBatch((events) => writeUsageBatch(database, events), 500);
    const thread500 = await blockedPerBatch((events) => thread.write(events), 500);
    await thread.close();
    await database.close();
    return { appendMicros, inline100, inline500, thread500 };
  } finally {
    rmSync(directory, { recursive: true, force: true });
  }
}

export async function runUsageDurabilityBenchmark() {
  const loadBefore = loadavg();
  const costs = await measureUsageWriteCosts();
  const rows = [];
  for (const variant of variants) {
    const { environment, close } = await startVariant(variant.env);
    try {
      const target = environment.viaGateway(false);
      await closedLoop({ target, concurrency: 16, durationSeconds: 2 });
      const pid = environment.gateway.child.pid;
      const cpuBefore = readCpuMicros(pid);
      const measured = await openLoop({ target, rate, durationSeconds: seconds });
      const cpuMicros = readCpuMicros(pid) - cpuBefore;
      rows.push({
        name: variant.name,
        ok: measured.ok,
        errors: measured.errors,
        p50: percentile(measured.latencies, 0.5),
        p99: percentile(measured.latencies, 0.99),
        max: measured.latencies.at(-1) ?? Number.NaN,
        cpuPerRequest: cpuMicros / Math.max(1, measured.ok),
        peakRss: readPeakRssMegabytes(pid),
      });
    } finally {
      await close();
    }
  }
  const loadAfter = loadavg();
  console.log("\nUsage durability (chat completions at %d req/s open loop, %d s per variant, embedded SQLite)", rate, seconds);
  console.log("| variant | ok | errors | p50 ms | p99 ms | max ms | gateway CPU us/req | peak RSS MB |");
  console.log("| --- | --- | --- | --- | --- | --- | --- | --- |");
  for (const row of rows) {
    console.log(`| ${row.name} | ${row.ok} | ${row.errors} | ${format(row.p50)} | ${format(row.p99)} | ${format(row.max)} | ${format(row.cpuPerRequest, 0)} | ${format(row.peakRss, 1)} |`);
  }
  const [memory, journal] = rows;
  console.log(
    `Journal vs memory: p50 ${format(journal.p50 - memory.p50)} ms, p99 ${format(journal.p99 - memory.p99)} ms, CPU ${format(journal.cpuPerRequest - memory.cpuPerRequest, 0)} us/req, peak RSS ${format(journal.peakRss - memory.peakRss, 1)} MB`,
  );
  console.log(`Journal append (JSON line + write(), on the request path): ${format(costs.appendMicros, 1)} us per event`);
  console.log(
    `Event loop held per usage batch: SQLite on the event loop ${format(costs.inline100)} ms (100 events), ${format(costs.inline500)} ms (500); writer thread ${format(costs.thread500)} ms (500: copying the batch into the message)`,
  );
  console.log(`Machine load average (1/5/15 min) before: ${loadBefore.map((value) => value.toFixed(2)).join(" ")}, after: ${loadAfter.map((value) => value.toFixed(2)).join(" ")} (2 cores, shared)`);
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) await runUsageDurabilityBenchmark();

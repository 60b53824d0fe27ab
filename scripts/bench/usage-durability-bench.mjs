// The cost of usage durability: the gateway at 1,000 req/s (open loop, chat completions against the
// local mock provider, embedded SQLite) with GATEWAY_USAGE_DURABILITY=memory, with =journal (an
// append per call, fdatasync every 100 ms, a replay on start), and with the SQLite usage writer
// back on the event loop (GATEWAY_USAGE_WRITER_THREAD=off) for the writer thread's share. Reuses
// the gateway benchmark's environment and load generator; figures are printed, never asserted.
import { mkdtempSync, rmSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
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

/** `startBenchEnvironment` passes this process's environment to the gateway: set the variant's for its start only. */
async function startVariant(env) {
  const dataDirectory = mkdtempSync(join(tmpdir(), "gateway-durability-bench-"));
  const previous = {};
  for (const [name, value] of Object.entries({ ...env, GATEWAY_DATA_DIR: dataDirectory })) {
    previous[name] = process.env[name];
    process.env[name] = value;
  }
  try {
    const environment = await startBenchEnvironment();
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
  } finally {
    for (const [name, value] of Object.entries(previous)) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
  }
}

export async function runUsageDurabilityBenchmark() {
  const loadBefore = loadavg();
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
  console.log(`Machine load average (1/5/15 min) before: ${loadBefore.map((value) => value.toFixed(2)).join(" ")}, after: ${loadAfter.map((value) => value.toFixed(2)).join(" ")} (2 cores, shared)`);
}

if (import.meta.url === `file://${process.argv[1]}`) await runUsageDurabilityBenchmark();

// `pnpm bench`: every benchmark of the repository, one after the other (they share 2 cores,
// so they never run at the same time). Figures are printed, never asserted. `pnpm bench <name>`
// runs one of them; `pnpm bench scale` (the control plane at many keys on PostgreSQL + Redis,
// see scripts/bench/scale-bench.mjs for its BENCH_SCALE_* settings) runs only when named.
import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("../", import.meta.url));
const only = process.argv[2];

const packageBenchmarks = [
  ["decision-schema", ["pnpm", "--filter", "@gateway/decision-schema", "run", "bench"]],
  ["db", ["pnpm", "--filter", "@gateway/db", "run", "bench"]],
  ["budget", ["pnpm", "--filter", "@gateway/budget", "run", "bench"]],
  ["hot-path", ["pnpm", "--filter", "@gateway/pipeline", "run", "bench"]],
];

let failed = false;
for (const [name, command] of packageBenchmarks) {
  if (only && only !== name) continue;
  console.log(`\n## ${name}`);
  const result = spawnSync(command[0], command.slice(1), { cwd: root, stdio: "inherit", env: { BENCH_EVENTS: "20000", ...process.env } });
  if (result.status !== 0) failed = true;
}
if (!only || only === "gateway") {
  console.log("\n## gateway");
  const { runGatewayBenchmark } = await import("./bench/gateway-bench.mjs");
  await runGatewayBenchmark();
}
if (!only || only === "hidden-classes") {
  console.log("\n## hidden-classes (V8 maps a request makes, by scenario: 0 is the target)");
  const { runHiddenClassBenchmark } = await import("./bench/hidden-class-bench.mjs");
  await runHiddenClassBenchmark();
}
if (!only || only === "observability") {
  console.log("\n## observability (gateway CPU per request with metrics, logs and traces off and on)");
  const { runObservabilityBenchmark } = await import("./bench/observability-bench.mjs");
  await runObservabilityBenchmark();
}
if (!only || only === "usage-durability") {
  console.log("\n## usage-durability (memory vs journal, and the SQLite usage writer thread)");
  const { runUsageDurabilityBenchmark } = await import("./bench/usage-durability-bench.mjs");
  await runUsageDurabilityBenchmark();
}
if (only === "scale") {
  console.log("\n## scale (the control plane at many keys: seeding, start, revocation, reloads, hot vs spread keys, the dashboard)");
  const { runScaleBenchmark } = await import("./bench/scale-bench.mjs");
  await runScaleBenchmark();
}
// Minutes of seeding (10 million PostgreSQL events by default): only when asked for by name.
if (only === "activity") {
  console.log("\n## activity (list, detail, Usage series and export at scale; PostgreSQL and SQLite)");
  const { runActivityBenchmark } = await import("./bench/activity-bench.mjs");
  await runActivityBenchmark();
}
// Seeds a day of rollups for 10 million events on PostgreSQL first: only when asked for by name.
if (only === "monitors") {
  console.log("\n## monitors (1,000 rules over 10 million events on PostgreSQL, per evaluation)");
  const { runMonitorsBenchmark } = await import("./bench/monitors-bench.mjs");
  await runMonitorsBenchmark();
}
process.exit(failed ? 1 : 0);

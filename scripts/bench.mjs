// `pnpm bench`: every benchmark of the repository, one after the other (they share 2 cores,
// so they never run at the same time). Figures are printed, never asserted.
import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("../", import.meta.url));
const only = process.argv[2];

const packageBenchmarks = [
  ["decision-schema", ["pnpm", "--filter", "@gateway/decision-schema", "run", "bench"]],
  ["db", ["pnpm", "--filter", "@gateway/db", "run", "bench"]],
  ["budget", ["pnpm", "--filter", "@gateway/budget", "run", "bench"]],
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
// Minutes of seeding (10 million PostgreSQL events by default): only when asked for by name.
if (only === "activity") {
  console.log("\n## activity (list, detail, Usage series and export at scale; PostgreSQL and SQLite)");
  const { runActivityBenchmark } = await import("./bench/activity-bench.mjs");
  await runActivityBenchmark();
}
process.exit(failed ? 1 : 0);

// CPU per request and latency percentiles of several gateway builds, measured in alternating
// 2-second slices of the same open-loop load (1,000 req/s of chat), so the shared machine's drift over minutes falls on every
// build alike. Run one after the other, builds differed by 10-15 % between runs of the same
// build; interleaved like this, medians of one build agree within a few percent.
//   node scripts/bench/interleaved-cpu-ab.mjs <entry> <entry> [...]
// Each entry is a gateway `main.js` relative to the repository root (as BENCH_GATEWAY_ENTRY),
// e.g. a worktree of the previous commit: `../before/apps/gateway/dist/main.js apps/gateway/dist/main.js`.
// BENCH_AB_ROUNDS (default 20) slices per build, BENCH_AB_RATE (default 1000) requests/s.
import { startBenchEnvironment } from "./gateway-bench.mjs";
import { closedLoop, openLoop, percentile } from "./load-generator.mjs";
import { readCpuMicros } from "./process-stats.mjs";

const entries = process.argv.slice(2);
if (entries.length < 2) {
  console.error("usage: node scripts/bench/interleaved-cpu-ab.mjs <gateway main.js> <gateway main.js> [...]");
  process.exit(2);
}
const rounds = Number(process.env.BENCH_AB_ROUNDS ?? "20");
const rate = Number(process.env.BENCH_AB_RATE ?? "1000");
const sliceSeconds = 2;

const environments = [];
try {
  for (const entry of entries) {
    process.env.BENCH_GATEWAY_ENTRY = entry;
    environments.push(await startBenchEnvironment());
  }
  for (const environment of environments) {
    await closedLoop({ target: environment.viaGateway(false), concurrency: 16, durationSeconds: 2 });
    await openLoop({ target: environment.viaGateway(false), rate, durationSeconds: 2 });
  }
  const slices = environments.map(() => []);
  const latencies = environments.map(() => []);
  for (let round = 0; round < rounds; round++) {
    for (const [index, environment] of environments.entries()) {
      const before = readCpuMicros(environment.gateway.child.pid);
      const result = await openLoop({ target: environment.viaGateway(false), rate, durationSeconds: sliceSeconds });
      for (const latency of result.latencies) latencies[index].push(latency);
      slices[index].push((readCpuMicros(environment.gateway.child.pid) - before) / (rate * sliceSeconds));
    }
  }
  const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
  console.log(`| gateway build | CPU per request, median of ${rounds} slices (us) | latency p50 / p99 over all slices (ms) | each slice's CPU (us) |`);
  console.log("| --- | --- | --- | --- |");
  entries.forEach((entry, index) => {
    const sorted = latencies[index].sort((a, b) => a - b);
    const p50 = percentile(sorted, 0.5).toFixed(2);
    const p99 = percentile(sorted, 0.99).toFixed(2);
    console.log(`| ${entry} | ${median(slices[index]).toFixed(0)} | ${p50} / ${p99} | ${slices[index].map((value) => value.toFixed(0)).join(" ")} |`);
  });
} finally {
  for (const environment of environments) await environment.close();
}

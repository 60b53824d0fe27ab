// Profiling aid (not part of `pnpm bench`): runs the gateway against the mock provider under
// closed-loop load with extra node arguments for the gateway process, e.g.
//   node scripts/bench/profile-gateway.mjs --cpu-prof --cpu-prof-dir=/tmp/prof
// PROFILE_SECONDS (default 8) and PROFILE_CONCURRENCY (default 64) set the load; PROFILE_RATE
// (requests per second) runs an open loop instead and adds p50/p99, the gateway's event-loop delay
// and GC counts, e.g. PROFILE_RATE=1000 node scripts/bench/profile-gateway.mjs --cpu-prof --cpu-prof-dir=/tmp/prof
import { runGatewayUnderLoad } from "./gateway-bench.mjs";

const seconds = Number(process.env.PROFILE_SECONDS ?? "8");
const concurrency = Number(process.env.PROFILE_CONCURRENCY ?? "64");
const rate = process.env.PROFILE_RATE === undefined ? null : Number(process.env.PROFILE_RATE);
const result = await runGatewayUnderLoad({ nodeArgs: process.argv.slice(2), seconds, concurrency, rate });
console.log(JSON.stringify(result));

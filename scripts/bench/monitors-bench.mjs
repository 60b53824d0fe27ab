// `pnpm bench monitors`: one evaluation of 1,000 monitor rules over a day of usage on PostgreSQL
// (target < 2 s per minute of wall time). What the evaluator reads is the monitors' rollup
// (`usage_monitor_rollups`: minute and hour rows), so the bench seeds that rollup directly in bulk
// with generate_series, shaped as 10 million events over the last 24 hours (1k keys over 100
// projects and 20 teams, 3 of 50 models per key, 10 connections, 5 client labels): ~3,000 minute
// rows per minute plus their hour rows. Older events cannot reach any rule (the longest window is
// a day) and are deleted from this rollup, so they cost an evaluation nothing. The rules mix every
// metric, every scope (one value and each value) and windows of 5 minutes to a day. Figures are
// printed, never asserted. Settings: BENCH_MONITORS_EVENTS (10000000), BENCH_MONITORS_RULES
// (1000), BENCH_MONITORS_TICKS (5), BENCH_DATABASE_URL or TEST_DATABASE_URL; BENCH_MONITORS_SCHEMA names a
// schema to keep: seeded (and left in place) when missing, reused when present (its states and events are
// cleared, its rows and rules kept, the evaluations placed just after its newest minute row).
import { randomBytes } from "node:crypto";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { fileURLToPath, pathToFileURL } from "node:url";

const root = fileURLToPath(new URL("../../", import.meta.url));
const environment = process.env;
const events = Number(environment.BENCH_MONITORS_EVENTS ?? "10000000");
const ruleCount = Number(environment.BENCH_MONITORS_RULES ?? "1000");
const ticks = Number(environment.BENCH_MONITORS_TICKS ?? "5");
const postgresUrl = environment.BENCH_DATABASE_URL ?? environment.TEST_DATABASE_URL;
const shape = { keys: 1000, projects: 100, teams: 20, models: 50, connections: 10, labels: 5, modelsPerKey: 3 };
const organizationId = "org_bench_monitors";
const format = (value, digits = 2) => (Number.isFinite(value) ? value.toFixed(digits) : "n/a");

/** Seeds minute rows for the last 1440 minutes (each key x its models), then the hour rows as their sums. */
async function seedRollups(db, endMs) {
  const combos = shape.keys * shape.modelsPerKey;
  const minutes = 1440;
  const perRow = events / (combos * minutes);
  const startMs = endMs - minutes * 60_000;
  const buckets = Array.from({ length: 17 }, (_, index) => `"latency_bucket_${index}"`);
  // request_count varies around the mean per row so that the total is the requested events (floor + a share of rows with one more).
  const base = Math.floor(perRow);
  const extraEvery = perRow - base > 0 ? Math.max(1, Math.round(1 / (perRow - base))) : 0;
  const requests = extraEvery > 0 ? `(${base} + CASE WHEN (m * 7919 + c) % ${extraEvery} = 0 THEN 1 ELSE 0 END)` : `${base}`;
  const key = `(c / ${shape.modelsPerKey})`;
  const chunkMinutes = 60;
  for (let first = 0; first < minutes; first += chunkMinutes) {
    await db.runStatements([
      {
        sql:
          `INSERT INTO "usage_monitor_rollups" ("id", "bucket_minutes", "bucket_start", "organization_id", "project_id", "team_id", "api_key_id", "model", "connection_id", "client_label", ` +
          `"request_count", "error_count", "tokens", "cost_micros", "time_to_first_byte_ms_sum", "time_to_first_byte_count", "guardrail_blocks", "rate_limit_refusals", "budget_refusals", "upstream_failures", ${buckets.join(", ")}) ` +
          `SELECT 'mr' || m || '_' || c, 1, to_timestamp(($1::bigint + m * 60000) / 1000.0) AT TIME ZONE 'UTC', $2, ` +
          `'project_' || (${key} % ${shape.projects}), 'team_' || (${key} % ${shape.teams}), 'key_' || ${key}, ` +
          `'model-' || ((${key} * 7 + c % ${shape.modelsPerKey}) % ${shape.models}), 'connection_' || (((${key} * 7 + c % ${shape.modelsPerKey}) % ${shape.models}) % ${shape.connections}), ` +
          `'label-' || (${key} % ${shape.labels}), r, CASE WHEN (m + c) % 40 = 0 THEN 1 ELSE 0 END, r * 300, r * 1500, r * 400, r, ` +
          `CASE WHEN (m + c) % 500 = 0 THEN 1 ELSE 0 END, CASE WHEN (m + c) % 300 = 0 THEN 1 ELSE 0 END, 0, CASE WHEN (m + c) % 90 = 0 THEN 1 ELSE 0 END, ` +
          buckets.map((_, index) => (index === 5 ? "r - r / 10" : index === 8 ? "r / 10" : "0")).join(", ") +
          ` FROM generate_series(${first}, ${Math.min(minutes, first + chunkMinutes) - 1}) AS m, generate_series(0, ${combos - 1}) AS c, LATERAL (SELECT ${requests} AS r) AS counts`,
        args: [startMs, organizationId],
      },
    ]);
  }
  const dimensions = ["organization_id", "project_id", "team_id", "api_key_id", "model", "connection_id", "client_label"].map((column) => `"${column}"`);
  const sums = ["request_count", "error_count", "tokens", "cost_micros", "time_to_first_byte_ms_sum", "time_to_first_byte_count", "guardrail_blocks", "rate_limit_refusals", "budget_refusals", "upstream_failures"]
    .map((column) => `"${column}"`)
    .concat(buckets);
  await db.runStatements([
    {
      sql:
        `INSERT INTO "usage_monitor_rollups" ("id", "bucket_minutes", "bucket_start", ${dimensions.join(", ")}, ${sums.join(", ")}) ` +
        `SELECT 'hr' || row_number() OVER (), 60, date_trunc('hour', "bucket_start"), ${dimensions.join(", ")}, ${sums.map((column) => `SUM(${column})`).join(", ")} ` +
        `FROM "usage_monitor_rollups" WHERE "bucket_minutes" = 1 GROUP BY date_trunc('hour', "bucket_start"), ${dimensions.join(", ")}`,
      args: [],
    },
  ]);
  const [counted] = await db.queryStatement({ sql: `SELECT SUM("request_count") FILTER (WHERE "bucket_minutes" = 1) AS events, COUNT(*) AS rows FROM "usage_monitor_rollups"`, args: [] });
  await db.runStatements([{ sql: `ANALYZE "usage_monitor_rollups"`, args: [] }]);
  return { events: Number(counted.events), rows: Number(counted.rows) };
}

/** 1,000 rules: every metric, every scope kind (a third on each value), windows from 5 minutes to a day. */
function ruleInputs() {
  const metrics = ["spend_micros", "requests", "tokens", "error_rate", "latency_p95_ms", "latency_p99_ms", "time_to_first_byte_ms", "guardrail_blocks", "rate_limit_refusals", "budget_refusals", "upstream_failures"];
  const windows = [5, 10, 15, 30, 60, 180, 360, 1440];
  const scopes = [
    ["organization", () => null],
    ["project", (index) => `project_${index % shape.projects}`],
    ["team", (index) => `team_${index % shape.teams}`],
    ["api_key", (index) => `key_${index % shape.keys}`],
    ["model", (index) => `model-${index % shape.models}`],
    ["connection", (index) => `connection_${index % shape.connections}`],
    ["client_label", (index) => `label-${index % shape.labels}`],
  ];
  return Array.from({ length: ruleCount }, (_, index) => {
    const [scopeKind, valueOf] = scopes[index % scopes.length];
    const each = scopeKind !== "organization" && index % 3 === 0;
    return {
      organizationId,
      name: `rule ${index}`,
      description: null,
      metric: metrics[index % metrics.length],
      scopeKind,
      scopeValue: each ? null : valueOf(index),
      windowMinutes: windows[index % windows.length],
      comparator: index % 2 === 0 ? "gt" : "lt",
      // Thresholds that put a tenth of the one-value rules firing and every other state ok (each-value rules keep states only
      // for values that fired: a threshold every value crosses would make the first evaluation write thousands of transitions).
      threshold: index % 10 === 0 && !each ? 0 : index % 2 === 0 ? 1e12 : -1,
      minCalls: null,
      severity: "warning",
      channelIds: [],
      renotifyMinutes: null,
      enabled: true,
      mutedUntil: null,
    };
  });
}

export async function runMonitorsBenchmark() {
  if (!postgresUrl) {
    console.log("PostgreSQL: skipped (set BENCH_DATABASE_URL or TEST_DATABASE_URL)");
    return;
  }
  const database = await import(pathToFileURL(join(root, "packages/db/dist/index.js")).href);
  const { evaluateMonitorRules } = await import(pathToFileURL(join(root, "apps/dashboard-api/dist/index.js")).href);
  const kept = environment.BENCH_MONITORS_SCHEMA;
  const schema = kept ?? `bench_monitors_${randomBytes(4).toString("hex")}`;
  const url = new URL(postgresUrl);
  url.searchParams.set("schema", schema);
  const db = database.createDatabase({ url: url.toString(), postgresqlPoolSize: 4 });
  console.log(`PostgreSQL: ${ruleCount} rules over ${events.toLocaleString("en")} events in the last 24 hours (schema ${schema}, ${kept ? "kept" : "dropped at the end"})`);
  try {
    await db.migrate();
    const reused = kept !== undefined && (await db.prisma.organization.count({ where: { id: organizationId } })) > 0;
    let endMs = Math.floor(Date.now() / 60_000) * 60_000;
    let started = performance.now();
    if (reused) {
      const [newest] = await db.queryStatement({ sql: `SELECT MAX("bucket_start") AS "newest" FROM "usage_monitor_rollups" WHERE "bucket_minutes" = 1`, args: [] });
      endMs = new Date(`${String(newest.newest instanceof Date ? newest.newest.toISOString() : newest.newest).replace(" ", "T").replace(/Z?$/, "Z")}`).getTime() + 60_000;
      await db.runStatements([{ sql: `DELETE FROM "monitor_events"`, args: [] }, { sql: `DELETE FROM "monitor_states"`, args: [] }, { sql: `DELETE FROM "evaluator_leases"`, args: [] }]);
      console.log(`reused the seeded schema (evaluations after ${new Date(endMs).toISOString()})`);
    } else {
      await db.prisma.organization.create({ data: { id: organizationId, name: "Bench", slug: `bench-${randomBytes(3).toString("hex")}` } });
      const seeded = await seedRollups(db, endMs);
      console.log(`seeded ${seeded.events.toLocaleString("en")} events as ${seeded.rows.toLocaleString("en")} rollup rows in ${format((performance.now() - started) / 1000, 1)} s`);
      for (const input of ruleInputs()) await database.createMonitorRule(db, input);
    }
    const lease = { name: "monitors", holder: "bench" };
    // Every statement the evaluation sends (Prisma operations, raw queries and statement batches).
    let queries = 0;
    const counted = {
      provider: db.provider,
      prisma: db.prisma.$extends({ query: { $allOperations: ({ args, query }) => ((queries += 1), query(args)) } }),
      queryStatement: (statement) => ((queries += 1), db.queryStatement(statement)),
      runStatements: (statements) => ((queries += statements.length), db.runStatements(statements)),
    };
    const durations = [];
    const queryCounts = [];
    for (let tick = 0; tick <= ticks; tick += 1) {
      // Evaluations one minute apart, as the evaluator runs; the first one creates every state.
      const now = new Date(endMs + 30_000 + tick * 60_000);
      await database.claimEvaluatorLease(db, { ...lease, now, ttlMs: 180_000 });
      started = performance.now();
      queries = 0;
      const result = await evaluateMonitorRules({ database: counted, lease, now });
      const seconds = (performance.now() - started) / 1000;
      if (tick === 0) console.log(`first evaluation (creates the states): ${format(seconds)} s, ${result.events} events, ${queries} queries`);
      else {
        durations.push(seconds);
        queryCounts.push(queries);
      }
    }
    durations.sort((left, right) => left - right);
    const [states] = await db.queryStatement({ sql: `SELECT COUNT(*) AS states, COUNT(*) FILTER (WHERE "status" = 'firing') AS firing FROM "monitor_states"`, args: [] });
    console.log(
      `steady evaluation of ${ruleCount} rules: median ${format(durations[Math.floor(durations.length / 2)])} s, worst ${format(durations.at(-1))} s ` +
        `over ${durations.length} evaluations (target < 2 s per minute), ${Math.max(...queryCounts)} queries each at most; ${states.states} states, ${states.firing} firing`,
    );
  } finally {
    if (!kept) await db.prisma.$executeRawUnsafe(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
    await db.close();
  }
}

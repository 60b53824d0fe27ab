// `pnpm bench activity`: the activity API's queries at scale. PostgreSQL (10 million events over
// 30 days by default: 1k keys, 50 models, 100 projects, seeded in bulk with generate_series into a
// schema the bench creates and drops) and SQLite (1 million events, seeded with a recursive CTE
// into a temp file). Measures the list's first page with each single filter (p50/p95), one call's
// detail, the Usage page's 30-day series, and the export path (keyset pages encoded as NDJSON) in
// rows/s and RSS growth. Figures are printed, never asserted. Sizes are settable:
//   BENCH_ACTIVITY_PG_EVENTS (10000000), BENCH_ACTIVITY_SQLITE_EVENTS (1000000),
//   BENCH_ACTIVITY_EXPORT_ROWS (1000000), BENCH_ACTIVITY_SAMPLES (40 per filter),
//   BENCH_ACTIVITY_TARGETS (postgresql,sqlite), BENCH_DATABASE_URL or TEST_DATABASE_URL (PostgreSQL;
//   skipped when neither is set), BENCH_ACTIVITY_PG_SCHEMA (a named schema that is kept: seeded on the
//   first run, migrated and reused by the next ones, so minutes of seeding are paid once),
//   BENCH_ACTIVITY_SQLITE_FILE (a SQLite file that is kept the same way instead of a temp one).
// On PostgreSQL it also measures a gateway serving BENCH_ACTIVITY_GATEWAY_RATE (1000) chat calls a
// second into the same database (its usage writes land in the seeded tables) for
// BENCH_ACTIVITY_GATEWAY_SECONDS (10) with the dashboard idle, then with a second process querying
// the activity store back to back, in BENCH_ACTIVITY_GATEWAY_ROUNDS (2) interleaved rounds: the
// gateway's p99 with and without (0 rounds: skipped).
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { fileURLToPath, pathToFileURL } from "node:url";

const root = fileURLToPath(new URL("../../", import.meta.url));
const environment = process.env;
const pgEvents = Number(environment.BENCH_ACTIVITY_PG_EVENTS ?? "10000000");
const sqliteEvents = Number(environment.BENCH_ACTIVITY_SQLITE_EVENTS ?? "1000000");
const exportRows = Number(environment.BENCH_ACTIVITY_EXPORT_ROWS ?? "1000000");
const samples = Number(environment.BENCH_ACTIVITY_SAMPLES ?? "40");
const targets = (environment.BENCH_ACTIVITY_TARGETS ?? "postgresql,sqlite").split(",");
const postgresUrl = environment.BENCH_DATABASE_URL ?? environment.TEST_DATABASE_URL;
const keptSchema = environment.BENCH_ACTIVITY_PG_SCHEMA;
const keptSqliteFile = environment.BENCH_ACTIVITY_SQLITE_FILE;
const gatewayRate = Number(environment.BENCH_ACTIVITY_GATEWAY_RATE ?? "1000");
const gatewaySeconds = Number(environment.BENCH_ACTIVITY_GATEWAY_SECONDS ?? "10");
const gatewayRounds = Number(environment.BENCH_ACTIVITY_GATEWAY_ROUNDS ?? "2");
/** The export route's page size (apps/dashboard-api's activity routes). */
const exportBatchSize = 5000;

const shape = { days: 30, keys: 1000, models: 50, projects: 100, teams: 20, connections: 10, labels: 5 };
const organizationId = "org_bench";
const spanMs = shape.days * 86_400_000;

const format = (value, digits = 1) => (Number.isFinite(value) ? value.toFixed(digits) : "n/a");
const percentile = (values, fraction) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(fraction * sorted.length))];
};

/**
 * The generated columns of event number `g` (1-based, 1 = newest), one SQL expression each; `n`
 * is the event count, `now_ms` the newest call's time in Unix ms. Keys belong to one project and
 * team and use three models each, as real keys do (so hourly rollups stay far smaller than events).
 */
function eventExpressions(dialect) {
  const concat = (...parts) => parts.join(" || ");
  const text = (expression) => (dialect === "postgresql" ? `(${expression})::text` : `CAST(${expression} AS TEXT)`);
  const div = (a, b) => (dialect === "postgresql" ? `((${a}) / ${b})` : `((${a}) / ${b})`);
  const key = `(g % ${shape.keys})`;
  const model = `((${key} * 7 + ${div("g", shape.keys)} % 3) % ${shape.models})`;
  const msExpression = dialect === "postgresql" ? `now_ms - (g - 1) * ${spanMs}::bigint / n` : `now_ms - (g - 1) * ${spanMs} / n`;
  const time =
    dialect === "postgresql"
      ? `to_timestamp((${msExpression}) / 1000.0) AT TIME ZONE 'UTC'`
      : `strftime('%Y-%m-%dT%H:%M:%f', (${msExpression}) / 1000.0, 'unixepoch') || '+00:00'`;
  const status = `CASE WHEN g % 50 = 0 THEN 502 WHEN g % 33 = 0 THEN 429 ELSE 200 END`;
  return {
    // Ids grow with time, as the gateway's time-ordered ids do.
    id: concat("'ev'", dialect === "postgresql" ? `lpad((n - g)::text, 12, '0')` : `substr('000000000000' || (n - g), -12, 12)`),
    // The gateway's format: `req_`, 9 base-36 digits of the call's Unix ms, 16 more characters.
    request_id: concat(
      "'req_'",
      ...Array.from({ length: 9 }, (_, position) => {
        const digit = `((${msExpression}) / ${36 ** (8 - position)}) % 36 + 1`;
        return `substr('0123456789abcdefghijklmnopqrstuvwxyz', ${dialect === "postgresql" ? `(${digit})::int` : digit}, 1)`;
      }),
      dialect === "postgresql" ? `lpad(g::text, 16, '0')` : `substr('0000000000000000' || g, -16, 16)`,
    ),
    occurred_at: time,
    organization_id: `'${organizationId}'`,
    project_id: concat("'prj_'", text(`${key} % ${shape.projects}`)),
    api_key_id: concat("'key_'", text(key)),
    team_id: concat("'team_'", text(`${key} % ${shape.teams}`)),
    user_id: "NULL",
    endpoint: `CASE WHEN g % 10 = 0 THEN 'messages' ELSE 'chat_completions' END`,
    requested_model: concat("'model_'", text(model)),
    provider: `'bench'`,
    model: concat("'model_'", text(model)),
    connection_id: concat("'conn_'", text(`g % ${shape.connections}`)),
    status,
    error_code: `CASE WHEN g % 50 = 0 THEN 'upstream_error' WHEN g % 33 = 0 THEN 'gateway_rate_limit_exceeded' ELSE NULL END`,
    error_message: `CASE WHEN g % 50 = 0 THEN 'The provider failed.' ELSE NULL END`,
    input_tokens: `(g * 31) % 4000`,
    output_tokens: `(g * 17) % 1000`,
    cache_read_tokens: "0",
    cache_write_tokens: "0",
    reasoning_tokens: "0",
    cost_micros: `(g * 7919) % 20000`,
    budget_outcome: `CASE WHEN g % 100 = 0 THEN 'soft_exceeded' ELSE NULL END`,
    latency_ms: `(g * 104729) % 3000`,
    time_to_first_byte_ms: `(g * 13) % 400`,
    gateway_overhead_ms: `g % 5`,
    client_label: concat("'client_'", text(`${key} % ${shape.labels}`)),
    client_version: concat("'1.'", text(`g % 4`)),
    session_id: concat("'s_'", text(div("g", 20))),
    metadata:
      dialect === "postgresql"
        ? `jsonb_build_object('env', CASE WHEN g % 3 = 0 THEN 'dev' ELSE 'prod' END, 'customer', 'c' || (g % 500)::text)`
        : `json_object('env', CASE WHEN g % 3 = 0 THEN 'dev' ELSE 'prod' END, 'customer', 'c' || (g % 500))`,
    guardrail_flags: dialect === "postgresql" ? `CASE WHEN g % 200 = 0 THEN '["pii"]'::jsonb ELSE '[]'::jsonb END` : `CASE WHEN g % 200 = 0 THEN '["pii"]' ELSE '[]' END`,
    guardrail_flagged: dialect === "postgresql" ? `(g % 200 = 0)` : `(g % 200 = 0)`,
    attempts:
      dialect === "postgresql"
        ? `jsonb_build_array(jsonb_build_object('connection_id', 'conn_0', 'provider', 'bench', 'model', 'm', 'status', 200, 'latency_ms', 10, 'error_code', NULL, 'outcome', 'served', 'reason', NULL))`
        : `json_array(json_object('connection_id', 'conn_0', 'provider', 'bench', 'model', 'm', 'status', 200, 'latency_ms', 10, 'error_code', NULL, 'outcome', 'served', 'reason', NULL))`,
    attempt_count: "1",
    rate_limit_outcome: `CASE WHEN g % 50 <> 0 AND g % 33 = 0 THEN 'limited' ELSE NULL END`,
    has_content: dialect === "postgresql" ? "false" : "0",
  };
}

/** The request id of seeded event `g` (as the SQL above builds it; BigInt: the products pass 2^53). */
function requestIdOf(g, events, nowMs) {
  const ms = BigInt(nowMs) - (BigInt(g - 1) * BigInt(spanMs)) / BigInt(events);
  return `req_${ms.toString(36).padStart(9, "0")}${String(g).padStart(16, "0")}`;
}

/** The filters measured one at a time: a name and a function of the sample index. */
function filterCases(events, nowMs) {
  const pick = (index, modulus) => (index * 7 + 3) % modulus;
  return [
    ["no filter", () => ({})],
    ["from/to (one day, a week ago)", () => ({ from: new Date(Date.now() - 8 * 86_400_000), to: new Date(Date.now() - 7 * 86_400_000) })],
    ["project_id", (index) => ({ projectId: `prj_${pick(index, shape.projects)}` })],
    ["team_id", (index) => ({ teamId: `team_${pick(index, shape.teams)}` })],
    ["api_key_id", (index) => ({ apiKeyId: `key_${pick(index, shape.keys)}` })],
    ["requested_model", (index) => ({ requestedModel: `model_${pick(index, shape.models)}` })],
    ["model", (index) => ({ model: `model_${pick(index, shape.models)}` })],
    ["connection_id", (index) => ({ connectionId: `conn_${pick(index, shape.connections)}` })],
    ["endpoint", () => ({ endpoint: "messages" })],
    ["status=502", () => ({ status: 502 })],
    ["status=4xx", () => ({ status: "4xx" })],
    ["error_code", () => ({ errorCode: "upstream_error" })],
    ["client_label", (index) => ({ clientLabel: `client_${pick(index, shape.labels)}` })],
    ["client_version", (index) => ({ clientVersion: `1.${pick(index, 4)}` })],
    ["session_id", (index) => ({ sessionId: `s_${pick(index * 7919, Math.floor(events / 20))}` })],
    ["metadata customer", (index) => ({ metadata: [{ key: "customer", value: `c${pick(index, 500)}` }] })],
    ["min_latency_ms=2900", () => ({ minLatencyMs: 2900 })],
    ["cost range", () => ({ minCostMicros: 19_000, maxCostMicros: 19_500 })],
    ["guardrail_flagged", () => ({ guardrailFlagged: true })],
    ["budget_outcome", () => ({ budgetOutcome: "soft_exceeded" })],
    ["rate_limit_outcome", () => ({ rateLimitOutcome: "limited" })],
    ["request_id", (index) => ({ requestId: requestIdOf(1 + pick(index * 7919, events), events, nowMs) })],
  ];
}

async function timeIt(work) {
  const started = performance.now();
  const result = await work();
  return { ms: performance.now() - started, result };
}

async function measureLists(db, events, nowMs, listActivityCalls, rowsLimit) {
  console.log(`  list (first page of 50, then the next page; ${samples} samples each):`);
  console.log(`    ${"filter".padEnd(30)} ${"p50 ms".padStart(8)} ${"p95 ms".padStart(8)} ${"next p95".padStart(9)}  rows`);
  let worst = 0;
  for (const [name, filtersOf] of filterCases(events, nowMs)) {
    const first = [];
    const next = [];
    let rows = 0;
    for (let index = 0; index < samples; index += 1) {
      const filters = { organizationId, ...filtersOf(index) };
      const { ms, result } = await timeIt(() => listActivityCalls(db, { ...filters, limit: 50 }));
      first.push(ms);
      rows = result.data.length;
      if (result.nextCursor) next.push((await timeIt(() => listActivityCalls(db, { ...filters, limit: 50, cursor: result.nextCursor }))).ms);
    }
    const p95 = percentile(first, 0.95);
    worst = Math.max(worst, p95);
    console.log(`    ${name.padEnd(30)} ${format(percentile(first, 0.5)).padStart(8)} ${format(p95).padStart(8)} ${format(next.length ? percentile(next, 0.95) : NaN).padStart(9)}  ${rows}`);
  }
  console.log(`  list: worst single-filter p95 ${format(worst)} ms (target <= ${rowsLimit} ms)`);
}

async function measureDetail(db, events, nowMs, getActivityCall) {
  const times = [];
  for (let index = 0; index < samples * 2; index += 1) {
    const requestId = requestIdOf(1 + ((index * 104_729) % events), events, nowMs);
    const { ms, result } = await timeIt(() => getActivityCall(db, { organizationId, requestId }));
    if (result === null) throw new Error(`detail: ${requestId} not found`);
    times.push(ms);
  }
  console.log(`  detail: p50 ${format(percentile(times, 0.5))} ms, p95 ${format(percentile(times, 0.95))} ms (target <= 20 ms)`);
}

async function measureSessions(db, listActivitySessions) {
  const cases = [
    ["last 24 hours", () => ({ from: new Date(Date.now() - 86_400_000) })],
    ["one API key, 30 days", (index) => ({ apiKeyId: `key_${(index * 7 + 3) % shape.keys}` })],
  ];
  for (const [name, filtersOf] of cases) {
    const times = [];
    for (let index = 0; index < Math.max(3, Math.floor(samples / 4)); index += 1) {
      times.push((await timeIt(() => listActivitySessions(db, { organizationId, ...filtersOf(index), limit: 50 }))).ms);
    }
    console.log(`  sessions (${name}): p50 ${format(percentile(times, 0.5))} ms, p95 ${format(percentile(times, 0.95))} ms`);
  }
}

async function measureSeries(db, { listUsageSeries, listDailyUsage }, nowMs) {
  for (const [interval, groupBy] of [["day", "none"], ["day", "model"], ["hour", "none"]]) {
    const times = [];
    for (let index = 0; index < 5; index += 1) {
      const to = new Date(nowMs + 60_000);
      const from = new Date(to.getTime() - spanMs);
      times.push((await timeIt(() => listUsageSeries(db, { organizationId, from, to, interval, groupBy }))).ms);
    }
    console.log(`  usage series, 30 days by ${interval}, group_by ${groupBy}: p50 ${format(percentile(times, 0.5))} ms, max ${format(Math.max(...times))} ms (target <= 200 ms)`);
  }
  // The Usage page's 30-day view per API key, project or model: daily totals (`/api/usage/daily`).
  for (const dimension of ["key", "project", "model"]) {
    const times = [];
    for (let index = 0; index < 5; index += 1) {
      const toDay = new Date(nowMs).toISOString().slice(0, 10);
      const fromDay = new Date(nowMs - spanMs).toISOString().slice(0, 10);
      times.push((await timeIt(() => listDailyUsage(db, { organizationId, fromDay, toDay, groupBy: [dimension] }))).ms);
    }
    console.log(`  usage daily totals, 30 days per ${dimension}: p50 ${format(percentile(times, 0.5))} ms, max ${format(Math.max(...times))} ms`);
  }
}

async function measureExport(db, iterateActivityCalls, limit) {
  globalThis.gc?.();
  const startRss = process.memoryUsage().rss;
  let peakRss = startRss;
  let rows = 0;
  let bytes = 0;
  const cpuBefore = process.cpuUsage();
  const started = performance.now();
  outer: for await (const batch of iterateActivityCalls(db, { organizationId }, { batchSize: exportBatchSize })) {
    // The route's NDJSON encoding of one page (one chunk per page).
    bytes += batch.map((call) => `${JSON.stringify(call)}\n`).join("").length;
    rows += batch.length;
    const rss = process.memoryUsage().rss;
    if (rss > peakRss) peakRss = rss;
    if (rows >= limit) break outer;
  }
  const seconds = (performance.now() - started) / 1000;
  const cpu = process.cpuUsage(cpuBefore);
  const cpuSeconds = (cpu.user + cpu.system) / 1e6;
  console.log(
    `  export (keyset pages of ${exportBatchSize} as the route reads them, NDJSON-encoded in process): ${rows} rows in ${format(seconds, 2)} s = ${format(rows / seconds, 0)} rows/s ` +
      `(target >= 50000), ${format(bytes / 1e6)} MB of text, RSS growth ${format((peakRss - startRss) / 1e6)} MB (target < 50 MB); ` +
      `this process's CPU ${format(cpuSeconds, 2)} s (${format(rows / cpuSeconds, 0)} rows per CPU-second: on a busy machine the wall-clock rate undercounts)`,
  );
}

/**
 * The gateway's latency at a fixed open-loop rate into the seeded database, with the dashboard idle
 * and with a separate process querying the activity store (scripts/bench/activity-dashboard-load.mjs),
 * interleaved so that the machine's drift spreads over both.
 */
async function measureGatewayWhileQueried(databaseUrl) {
  const { spawn } = await import("node:child_process");
  const { loadavg } = await import("node:os");
  const { startBenchEnvironment } = await import("./gateway-bench.mjs");
  const { openLoop, percentile: sortedPercentile } = await import("./load-generator.mjs");
  const environment = await startBenchEnvironment({ gatewayEnv: { DATABASE_URL: databaseUrl } });
  const dashboardLoad = async (load) => {
    const child = spawn(process.execPath, [join(root, "scripts/bench/activity-dashboard-load.mjs")], {
      env: { ...process.env, BENCH_ACTIVITY_DASHBOARD_URL: databaseUrl, BENCH_ACTIVITY_ORGANIZATION: organizationId },
      stdio: ["ignore", "pipe", "inherit"],
    });
    let output = "";
    const ready = new Promise((resolve, reject) => {
      child.stdout.on("data", (chunk) => {
        output += chunk.toString();
        if (output.includes('"ready"')) resolve();
      });
      child.on("exit", (code) => reject(new Error(`the dashboard load exited (${code}) before it was ready`)));
    });
    await ready;
    const result = await load();
    const exited = new Promise((resolve) => child.on("exit", resolve));
    child.kill("SIGTERM");
    await exited;
    const queries = Number(/"queries":(\d+)/.exec(output)?.[1] ?? Number.NaN);
    return { result, queries };
  };
  try {
    const target = environment.viaGateway(false);
    await openLoop({ target, rate: gatewayRate, durationSeconds: 2 });
    console.log(`  gateway at ${gatewayRate} req/s into this database, ${gatewaySeconds} s per run (load average before: ${loadavg().map((value) => value.toFixed(1)).join(" ")}):`);
    const differences = [];
    for (let round = 1; round <= gatewayRounds; round += 1) {
      const quiet = await openLoop({ target, rate: gatewayRate, durationSeconds: gatewaySeconds });
      const busy = await dashboardLoad(() => openLoop({ target, rate: gatewayRate, durationSeconds: gatewaySeconds }));
      const quietP99 = sortedPercentile(quiet.latencies, 0.99);
      const busyP99 = sortedPercentile(busy.result.latencies, 0.99);
      differences.push(busyP99 - quietP99);
      console.log(
        `    round ${round}: dashboard idle p50 ${format(sortedPercentile(quiet.latencies, 0.5), 2)} ms p99 ${format(quietP99, 2)} ms (${quiet.errors} errors); ` +
          `dashboard querying (${busy.queries} queries) p50 ${format(sortedPercentile(busy.result.latencies, 0.5), 2)} ms p99 ${format(busyP99, 2)} ms (${busy.result.errors} errors); ` +
          `p99 grew ${format(busyP99 - quietP99, 2)} ms`,
    );
    }
    console.log(`  gateway p99 growth while the dashboard queries: median ${format(percentile(differences, 0.5), 2)} ms over ${gatewayRounds} rounds (target <= 1 ms; load average after: ${loadavg().map((value) => value.toFixed(1)).join(" ")})`);
  } finally {
    await environment.close();
  }
}

async function loadDatabaseModule() {
  return import(pathToFileURL(join(root, "packages/db/dist/index.js")).href);
}

async function runPostgresql(module) {
  if (!postgresUrl) {
    console.log("PostgreSQL: skipped (set BENCH_DATABASE_URL or TEST_DATABASE_URL)");
    return;
  }
  const schema = keptSchema ?? `bench_activity_${randomBytes(4).toString("hex")}`;
  const url = new URL(postgresUrl);
  url.searchParams.set("schema", schema);
  const db = module.createDatabase({ url: url.toString(), postgresqlPoolSize: 4 });
  console.log(`PostgreSQL: ${pgEvents.toLocaleString("en")} events over ${shape.days} days (schema ${schema}, ${keptSchema ? "kept" : "dropped at the end"})`);
  try {
    await db.migrate();
    const seededBefore = keptSchema ? await readSeededShape(db) : null;
    if (seededBefore !== null && seededBefore.events !== pgEvents) throw new Error(`schema ${schema} holds ${seededBefore.events} events, not ${pgEvents}: drop it or name another`);
    const nowMs = seededBefore?.nowMs ?? Date.now();
    if (seededBefore === null) await seedPostgresql(db, nowMs);
    else console.log(`  reusing the ${seededBefore.events.toLocaleString("en")} events seeded at ${new Date(nowMs).toISOString()}`);
    if (seededBefore !== null && !seededBefore.rolledUp) await seedRollups(db);
    await measureLists(db, pgEvents, nowMs, module.listActivityCalls, 100);
    await measureDetail(db, pgEvents, nowMs, module.getActivityCall);
    await measureSessions(db, module.listActivitySessions);
    await measureSeries(db, module, nowMs);
    await measureExport(db, module.iterateActivityCalls, Math.min(exportRows, pgEvents));
    if (gatewayRounds > 0) await measureGatewayWhileQueried(url.toString());
  } finally {
    if (!keptSchema) await db.queryStatement({ sql: `DROP SCHEMA IF EXISTS "${schema}" CASCADE`, args: [] }).catch((error) => console.error(`  could not drop ${schema}: ${error}`));
    await db.close();
  }
}

/** A kept schema's seed (event count and the newest call's time), or null when it holds no events. */
async function readSeededShape(db) {
  const [row] = await db.queryStatement({
    sql: `SELECT COUNT(*) AS events, MAX("occurred_at") AS newest, EXISTS (SELECT 1 FROM "usage_hourly_rollups") AS rolled_up FROM "usage_events"`,
    args: [],
  });
  const events = Number(row.events);
  return events === 0 ? null : { events, nowMs: new Date(row.newest).getTime(), rolledUp: row.rolled_up === true };
}

/** Seeds the events (bulk INSERT .. SELECT generate_series, 250k rows a statement) and their rollups. */
async function seedPostgresql(db, nowMs) {
  {
    await db.queryStatement({
      sql: `SELECT "usage_events_ensure_partition"(d::date) FROM generate_series(($1::timestamp - interval '${shape.days + 1} days')::date, ($1::timestamp)::date, interval '1 day') AS d`,
      args: [new Date(nowMs).toISOString().slice(0, -1)],
    });
    const expressions = eventExpressions("postgresql");
    const columns = Object.keys(expressions);
    const chunk = 250_000;
    // Bulk load: the secondary indexes (a dozen B-trees and the metadata GIN) are dropped while the
    // rows go in and built once afterwards, which is several times faster than maintaining them per row.
    const indexes = await db.queryStatement({
      sql: `SELECT indexname, indexdef FROM pg_indexes WHERE schemaname = current_schema() AND tablename = 'usage_events' AND indexname NOT LIKE '%_pkey'`,
      args: [],
    });
    await db.runStatements(indexes.map((index) => ({ sql: `DROP INDEX "${index.indexname}"`, args: [] })));
    const seeded = await timeIt(async () => {
      for (let start = 1; start <= pgEvents; start += chunk) {
        const end = Math.min(pgEvents, start + chunk - 1);
        await db.runStatements([
          {
            sql: `INSERT INTO "usage_events" (${columns.map((column) => `"${column}"`).join(", ")})
              SELECT ${columns.map((column) => expressions[column]).join(", ")}
              FROM (SELECT g, $3::bigint AS n, $4::bigint AS now_ms FROM generate_series($1::bigint, $2::bigint) AS g) AS s`,
            args: [start, end, pgEvents, nowMs],
          },
        ]);
        process.stdout.write(`\r  seeding events: ${end.toLocaleString("en")}`);
      }
    });
    process.stdout.write("\n");
    const indexed = await timeIt(async () => {
      for (const index of indexes) {
        // pg_indexes spells the partitioned index `ON ONLY` (the parent alone); without ONLY it is built on every partition.
        const definition = String(index.indexdef).replace(" ON ONLY ", " ON ");
        await db.runStatements([{ sql: `SET LOCAL maintenance_work_mem = '256MB'`, args: [] }, { sql: definition, args: [] }]);
        process.stdout.write(`\r  indexes built: ${indexes.indexOf(index) + 1} of ${indexes.length}`);
      }
    });
    process.stdout.write("\n");
    await db.queryStatement({ sql: `ANALYZE "usage_events"`, args: [] });
    console.log(`  seeded in ${format(seeded.ms / 1000)} s, indexes built in ${format(indexed.ms / 1000)} s`);
    await seedRollups(db);
  }
}

/** The rollups of the seeded events (a kept schema's, when an earlier run stopped before them). */
async function seedRollups(db) {
  const rollups = await timeIt(() => seedHourlyRollups(db));
  for (const table of ["usage_hourly_rollups", "usage_daily_rollups", "usage_organization_hourly_rollups"]) await db.queryStatement({ sql: `ANALYZE "${table}"`, args: [] });
  console.log(`  rollups seeded in ${format(rollups.ms / 1000)} s`);
}

/** Hourly rollups of the seeded events, as the usage writer keeps them, and the daily and organization ones from them (PostgreSQL). */
async function seedHourlyRollups(db) {
  const bounds = [50, 100, 200, 300, 500, 750, 1000, 1500, 2000, 3000, 5000, 7500, 10_000, 20_000, 30_000, 60_000];
  let previous = -1;
  const buckets = bounds.map((bound) => {
    const sum = `SUM(CASE WHEN "latency_ms" > ${previous} AND "latency_ms" <= ${bound} THEN 1 ELSE 0 END)`;
    previous = bound;
    return sum;
  });
  buckets.push(`SUM(CASE WHEN "latency_ms" > ${previous} THEN 1 ELSE 0 END)`);
  await db.runStatements([
    {
      sql: `INSERT INTO "usage_hourly_rollups" ("id", "hour", "organization_id", "project_id", "api_key_id", "model", "client_label", "request_count", "error_count",
        "input_tokens", "output_tokens", "cache_read_tokens", "cache_write_tokens", "cost_micros", "latency_ms_sum", "latency_count", "latency_ms_max",
        "time_to_first_byte_ms_sum", "time_to_first_byte_count", ${buckets.map((_, index) => `"latency_bucket_${index}"`).join(", ")}, "updated_at")
        SELECT md5(random()::text || clock_timestamp()::text), date_trunc('hour', "occurred_at"), "organization_id", COALESCE("project_id", ''), COALESCE("api_key_id", ''),
          "provider" || '/' || "model", COALESCE("client_label", ''), COUNT(*), SUM(CASE WHEN "status" >= 400 THEN 1 ELSE 0 END),
          SUM("input_tokens"), SUM("output_tokens"), SUM("cache_read_tokens"), SUM("cache_write_tokens"), SUM("cost_micros"), SUM("latency_ms"), COUNT(*), MAX("latency_ms"),
          COALESCE(SUM("time_to_first_byte_ms"), 0), COUNT("time_to_first_byte_ms"), ${buckets.join(", ")}, now()
        FROM "usage_events"
        GROUP BY date_trunc('hour', "occurred_at"), "organization_id", COALESCE("project_id", ''), COALESCE("api_key_id", ''), "provider" || '/' || "model", COALESCE("client_label", '')`,
      args: [],
    },
    // The organization rollups from the hourly ones, as the migration that added them backfills them.
    {
      sql: `INSERT INTO "usage_organization_hourly_rollups" ("id", "organization_id", "hour", "model", "request_count", "error_count", "input_tokens", "output_tokens",
        "cache_read_tokens", "cache_write_tokens", "cost_micros", "latency_ms_sum", "latency_count", "latency_ms_max", "time_to_first_byte_ms_sum", "time_to_first_byte_count",
        ${buckets.map((_, index) => `"latency_bucket_${index}"`).join(", ")}, "updated_at")
        SELECT md5(random()::text || clock_timestamp()::text), "organization_id", "hour", "model", SUM("request_count"), SUM("error_count"), SUM("input_tokens"), SUM("output_tokens"),
          SUM("cache_read_tokens"), SUM("cache_write_tokens"), SUM("cost_micros"), SUM("latency_ms_sum"), SUM("latency_count"), MAX("latency_ms_max"),
          SUM("time_to_first_byte_ms_sum"), SUM("time_to_first_byte_count"), ${buckets.map((_, index) => `SUM("latency_bucket_${index}")`).join(", ")}, now()
        FROM "usage_hourly_rollups" GROUP BY "organization_id", "hour", "model"`,
      args: [],
    },
    // The daily rollups (budget figures) from the hourly ones: the same sums per UTC day.
    {
      sql: `INSERT INTO "usage_daily_rollups" ("id", "day", "organization_id", "project_id", "api_key_id", "model", "request_count", "error_count",
        "input_tokens", "output_tokens", "cache_read_tokens", "cache_write_tokens", "cost_micros", "updated_at")
        SELECT md5(random()::text || clock_timestamp()::text), to_char("hour", 'YYYY-MM-DD'), "organization_id", "project_id", "api_key_id", "model",
          SUM("request_count"), SUM("error_count"), SUM("input_tokens"), SUM("output_tokens"), SUM("cache_read_tokens"), SUM("cache_write_tokens"), SUM("cost_micros"), now()
        FROM "usage_hourly_rollups" GROUP BY 2, 3, 4, 5, 6`,
      args: [],
    },
  ]);
}

async function runSqlite(module) {
  const directory = keptSqliteFile ? null : mkdtempSync(join(tmpdir(), "gateway-activity-bench-"));
  const file = keptSqliteFile ?? join(directory, "bench.db");
  const db = module.createDatabase({ url: `file:${file}` });
  console.log(`SQLite: ${sqliteEvents.toLocaleString("en")} events over ${shape.days} days (${keptSqliteFile ? `kept in ${file}` : "temp file"})`);
  try {
    await db.migrate();
    const seededBefore = keptSqliteFile ? await readSeededSqliteShape(db) : null;
    if (seededBefore !== null && seededBefore.events !== sqliteEvents) throw new Error(`${file} holds ${seededBefore.events} events, not ${sqliteEvents}: delete it or name another`);
    const nowMs = seededBefore?.nowMs ?? Date.now();
    if (seededBefore === null) await seedSqlite(db, nowMs);
    else console.log(`  reusing the ${seededBefore.events.toLocaleString("en")} events seeded at ${new Date(nowMs).toISOString()}`);
    await measureLists(db, sqliteEvents, nowMs, module.listActivityCalls, 150);
    await measureDetail(db, sqliteEvents, nowMs, module.getActivityCall);
    await measureSessions(db, module.listActivitySessions);
  } finally {
    await db.close();
    if (directory !== null) rmSync(directory, { recursive: true, force: true });
  }
}

/** A kept SQLite file's seed (event count and the newest call's time), or null when it holds no events. */
async function readSeededSqliteShape(db) {
  const [row] = await db.queryStatement({ sql: `SELECT COUNT(*) AS events, MAX("occurred_at") AS newest FROM "usage_events"`, args: [] });
  const events = Number(row.events);
  return events === 0 ? null : { events, nowMs: new Date(String(row.newest)).getTime() };
}

/** Seeds the SQLite events (a recursive CTE, 100k rows a statement). */
async function seedSqlite(db, nowMs) {
  const expressions = eventExpressions("sqlite");
  const columns = Object.keys(expressions);
  const chunk = 100_000;
  const seeded = await timeIt(async () => {
    for (let start = 1; start <= sqliteEvents; start += chunk) {
      const end = Math.min(sqliteEvents, start + chunk - 1);
      await db.runStatements([
        {
          sql: `WITH RECURSIVE s(g) AS (SELECT CAST(? AS INTEGER) UNION ALL SELECT g + 1 FROM s WHERE g < CAST(? AS INTEGER))
            INSERT INTO "usage_events" (${columns.map((column) => `"${column}"`).join(", ")})
            SELECT ${columns.map((column) => expressions[column]).join(", ")} FROM (SELECT g, CAST(? AS INTEGER) AS n, CAST(? AS INTEGER) AS now_ms FROM s)`,
          args: [start, end, sqliteEvents, nowMs],
        },
      ]);
      process.stdout.write(`\r  seeding events: ${end.toLocaleString("en")}`);
    }
  });
  process.stdout.write("\n");
  await db.runStatements([{ sql: "ANALYZE", args: [] }]);
  console.log(`  seeded in ${format(seeded.ms / 1000)} s`);
}

/** Runs the activity benchmark on the selected targets. */
export async function runActivityBenchmark() {
  const module = await loadDatabaseModule();
  if (targets.includes("postgresql")) await runPostgresql(module);
  if (targets.includes("sqlite")) await runSqlite(module);
}

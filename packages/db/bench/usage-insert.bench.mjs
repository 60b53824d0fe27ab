#!/usr/bin/env node
// Usage-event batch insert throughput (events/s) on SQLite and, when TEST_DATABASE_URL or a
// postgres DATABASE_URL is set, PostgreSQL (in a throwaway schema). Not a test: no thresholds.
//   pnpm --filter @gateway/db build && TEST_DATABASE_URL=postgresql://postgres@127.0.0.1:5432/test pnpm --filter @gateway/db bench
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import pg from "pg";
import { appendUsageEvents, createDatabase, writeUsageBatch } from "../dist/index.js";

const TOTAL = Number(process.env.BENCH_EVENTS ?? 50_000);
const BATCH_SIZES = [100, 1_000, 10_000];

function makeEvents(count) {
  const occurredAt = new Date();
  return Array.from({ length: count }, (_, index) => ({
    requestId: `req_${index}_${randomBytes(4).toString("hex")}`,
    traceId: index % 3 === 0 ? `trace-${index}` : null,
    occurredAt,
    organizationId: "org_bench",
    projectId: `project_${index % 5}`,
    apiKeyId: `key_${index % 20}`,
    userId: null,
    endpoint: "chat_completions",
    requestedModel: "fast",
    routeId: "route_bench",
    provider: "demo",
    model: `demo/model-${index % 4}`,
    status: index % 50 === 0 ? 502 : 200,
    errorCode: index % 50 === 0 ? "upstream_error" : null,
    inputTokens: 100 + (index % 400),
    outputTokens: 20 + (index % 100),
    cacheReadTokens: index % 7,
    cacheWriteTokens: 0,
    costMicros: 1_234 + index,
    budgetOutcome: "reserved",
    latencyMs: 120 + (index % 300),
    timeToFirstByteMs: 40,
    clientLabel: "bench/1.0",
    sessionId: null,
    guardrailFlags: index % 100 === 0 ? ["pii_email"] : [],
    content: null,
  }));
}

async function measure(database, label) {
  await database.migrate();
  const events = makeEvents(TOTAL);
  for (const [name, write] of [["appendUsageEvents", appendUsageEvents], ["writeUsageBatch (events + rollups)", writeUsageBatch]]) {
    for (const batchSize of BATCH_SIZES) {
      const started = performance.now();
      for (let start = 0; start < events.length; start += batchSize) await write(database, events.slice(start, start + batchSize));
      const seconds = (performance.now() - started) / 1000;
      console.log(`${label.padEnd(10)} ${name.padEnd(36)} batch ${String(batchSize).padStart(6)}: ${Math.round(TOTAL / seconds).toLocaleString("en-US").padStart(9)} events/s (${TOTAL} events in ${seconds.toFixed(2)} s)`);
    }
  }
}

const directory = mkdtempSync(path.join(tmpdir(), "gateway-bench-"));
const sqlite = createDatabase({ url: `file:${path.join(directory, "bench.db")}` });
try {
  await measure(sqlite, "sqlite");
} finally {
  await sqlite.close();
  rmSync(directory, { recursive: true, force: true });
}

const postgresqlUrl = [process.env.TEST_DATABASE_URL, process.env.DATABASE_URL].find((url) => url && /^postgres(ql)?:\/\//.test(url));
if (!postgresqlUrl) {
  console.log("postgresql: skipped (set TEST_DATABASE_URL or a postgresql:// DATABASE_URL)");
} else {
  const schema = `gateway_bench_${randomBytes(4).toString("hex")}`;
  const url = new URL(postgresqlUrl);
  url.searchParams.set("schema", schema);
  const database = createDatabase({ url: url.toString() });
  try {
    await measure(database, "postgresql");
  } finally {
    await database.close();
    const admin = new pg.Client({ connectionString: postgresqlUrl });
    await admin.connect();
    await admin.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
    await admin.end();
  }
}

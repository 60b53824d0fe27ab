// The control plane at many keys, in one process on PostgreSQL: seeds N keys in a schema of its
// own, starts the gateway's snapshot holder on it (deltas, LISTEN), then measures the first load,
// the memory per key, revocation latency (raw SQL UPDATE -> the key refused by the in-memory
// authentication), a policy change, and a full reload, with the longest event-loop stall of each.
//
//   pnpm build && node --expose-gc scripts/bench/control-plane-keys.mjs [keys=100000] [--legacy]
//
// Needs TEST_DATABASE_URL (or DATABASE_URL) pointing at PostgreSQL. `--legacy` also measures the
// previous way (the whole snapshot loaded as one list, then two maps built) for comparison.
// Figures are printed, never asserted.
import { randomBytes } from "node:crypto";
import { readFileSync } from "node:fs";
import { performance } from "node:perf_hooks";

const root = new URL("../../", import.meta.url);
const { openDataPlaneDatabase, createSecretBox, loadControlPlaneSnapshot, loadControlPlaneConfiguration, loadControlPlaneParts, loadActiveApiKeys, loadActiveMcpTokens, readControlPlaneChanges, readControlPlaneVersion, subscribeControlPlaneChanges } =
  await import(new URL("packages/db/dist/data-plane.js", root).href);
const { createSnapshotHolder, authenticateMcpCaller } = await import(new URL("packages/pipeline/dist/index.js", root).href);

const keyCount = Number(process.argv.slice(2).find((argument) => /^\d+$/.test(argument)) ?? 100_000);
const legacy = process.argv.includes("--legacy");
const baseUrl = process.env.TEST_DATABASE_URL ?? process.env.DATABASE_URL;
if (!baseUrl?.startsWith("postgres")) throw new Error("Set TEST_DATABASE_URL to a PostgreSQL database.");
if (typeof globalThis.gc !== "function") throw new Error("Run with node --expose-gc (memory figures need a full GC).");

const megabytes = (bytes) => Math.round(bytes / 1048576);
const rssMegabytes = () => Math.round(Number(/VmRSS:\s+(\d+)/.exec(readFileSync("/proc/self/status", "utf8"))[1]) / 1024);
const peakRssMegabytes = () => Math.round(Number(/VmHWM:\s+(\d+)/.exec(readFileSync("/proc/self/status", "utf8"))[1]) / 1024);
const settledHeap = () => {
  globalThis.gc();
  globalThis.gc();
  return process.memoryUsage().heapUsed;
};

/**
 * How long the event loop was held while `work` runs: the longest gap between 1 ms timer ticks
 * (wall clock: on a busy machine it includes time the process was not scheduled), and the most
 * CPU time the process used between two ticks (what the work itself held, GC included).
 */
async function withLoopStall(work) {
  let last = performance.now();
  let lastCpu = process.cpuUsage();
  let longest = 0;
  let longestCpu = 0;
  const ticker = setInterval(() => {
    const now = performance.now();
    const cpu = process.cpuUsage(lastCpu);
    longest = Math.max(longest, now - last);
    longestCpu = Math.max(longestCpu, (cpu.user + cpu.system) / 1000);
    last = now;
    lastCpu = process.cpuUsage();
  }, 1);
  const started = performance.now();
  try {
    const result = await work();
    return { result, ms: performance.now() - started, stallMs: longest, stallCpuMs: longestCpu };
  } finally {
    clearInterval(ticker);
  }
}
const stallText = (measured) => `longest event-loop stall ${measured.stallMs.toFixed(1)} ms wall / ${measured.stallCpuMs.toFixed(1)} ms CPU`;

/**
 * `pg` keeps the rows of a client's last query reachable until that client runs another one:
 * cycle every pooled client so that heap figures count what the gateway keeps, not those rows.
 */
const flushPool = (database) => Promise.all(Array.from({ length: 16 }, () => database.queryStatement({ sql: "SELECT pg_sleep(0.02)", args: [] })));

const secretOf = (n) => `gak_bench_${String(n).padStart(8, "0")}`;
const schema = `cpkeys_bench_${randomBytes(4).toString("hex")}`;
const admin = openDataPlaneDatabase({ url: baseUrl });
await admin.runStatements([{ sql: `CREATE SCHEMA "${schema}"`, args: [] }]);
const url = new URL(baseUrl);
url.searchParams.set("schema", schema);
const db = openDataPlaneDatabase({ url: url.toString() });
const secretBox = createSecretBox({ keys: [{ id: "bench", key: randomBytes(32) }], activeKeyId: "bench" });
let holder;
try {
  await db.migrate();
  const seeding = performance.now();
  await db.runStatements([
    { sql: `INSERT INTO "organizations" ("id", "name", "slug", "created_at", "updated_at") VALUES ('org_bench', 'Bench', 'bench', now(), now())`, args: [] },
    {
      sql: `INSERT INTO "projects" ("id", "organization_id", "name", "created_at", "updated_at") SELECT 'prj_' || lpad(n::text, 5, '0'), 'org_bench', 'project ' || n, now(), now() FROM generate_series(1, 1000) AS n`,
      args: [],
    },
  ]);
  const chunk = 100_000;
  for (let start = 1; start <= keyCount; start += chunk) {
    const end = Math.min(keyCount, start + chunk - 1);
    await db.runStatements([
      {
        sql: `INSERT INTO "api_keys" ("id", "organization_id", "project_id", "name", "prefix", "last_four", "secret_hash", "created_at", "updated_at")
              SELECT 'key_' || lpad(n::text, 8, '0'), 'org_bench', 'prj_' || lpad((1 + n % 1000)::text, 5, '0'), 'service key ' || n, 'gak_bench_', right(lpad(n::text, 8, '0'), 4),
                     encode(sha256(convert_to('gak_bench_' || lpad(n::text, 8, '0'), 'UTF8')), 'hex'), now(), now()
              FROM generate_series(${start}, ${end}) AS n`,
        args: [],
      },
    ]);
  }
  // Statistics as autovacuum would gather them on a table this size (the key pages then walk the primary key).
  await db.queryStatement({ sql: 'ANALYZE "api_keys"', args: [] });
  console.log(`seeded ${keyCount} keys in 1,000 projects in ${Math.round(performance.now() - seeding)} ms (schema ${schema})`);

  await flushPool(db);
  const heapBefore = settledHeap();
  const rssBefore = rssMegabytes();
  const reloads = [];
  const source = {
    load: () => loadControlPlaneSnapshot(db, { secretBox }),
    readVersion: () => readControlPlaneVersion(db),
    deltas: {
      readChanges: (afterVersion, limit) => readControlPlaneChanges(db, { afterVersion, limit }),
      loadConfiguration: () => loadControlPlaneConfiguration(db, { secretBox }),
      loadConfigurationParts: (parts) => loadControlPlaneParts(db, parts, { secretBox }),
      loadApiKeys: (selection) => loadActiveApiKeys(db, selection),
      loadMcpTokens: (selection) => loadActiveMcpTokens(db, selection),
    },
    subscribe: (onChange) =>
      subscribeControlPlaneChanges(db, (version, notification) => onChange({ version, ...(notification.change ? { changes: [notification.change] } : {}) })),
  };
  holder = createSnapshotHolder({ source, pollIntervalMs: 300, fullReloadIntervalMs: 0, keyPageSize: Number(process.env.KEY_PAGE_SIZE ?? 5000), onReload: (_snapshot, reason, details) => reloads.push(`${reason}:${details.mode}`) });
  const start = await withLoopStall(() => holder.start());
  await flushPool(db);
  const heapServing = settledHeap();
  console.log(
    `start (full load, paged): ${Math.round(start.ms)} ms, ${stallText(start)}; ` +
      `heap +${megabytes(heapServing - heapBefore)} MB = ${Math.round((heapServing - heapBefore) / keyCount)} bytes per key; RSS ${rssBefore} -> ${rssMegabytes()} MB (peak ${peakRssMegabytes()} MB)`,
  );

  const authorized = (secret) => {
    try {
      authenticateMcpCaller({ authorization: `Bearer ${secret}` }, holder.current());
      return true;
    } catch {
      return false;
    }
  };
  const latencies = [];
  let stall = { stallMs: 0, stallCpuMs: 0 };
  for (let round = 0; round < 20; round += 1) {
    const n = 1 + Math.floor(Math.random() * keyCount);
    if (!authorized(secretOf(n))) continue;
    const measured = await withLoopStall(async () => {
      const started = performance.now();
      await db.runStatements([{ sql: `UPDATE "api_keys" SET "revoked_at" = now() WHERE "id" = $1`, args: [`key_${String(n).padStart(8, "0")}`] }]);
      while (authorized(secretOf(n))) await new Promise((resolve) => setImmediate(resolve));
      return performance.now() - started;
    });
    latencies.push(measured.result);
    stall = { stallMs: Math.max(stall.stallMs, measured.stallMs), stallCpuMs: Math.max(stall.stallCpuMs, measured.stallCpuMs) };
  }
  latencies.sort((left, right) => left - right);
  const deltas = reloads.filter((entry) => entry.endsWith(":delta")).length;
  console.log(
    `revocation (UPDATE committed -> key refused), ${latencies.length} keys: median ${latencies[latencies.length >> 1].toFixed(1)} ms, max ${latencies.at(-1).toFixed(1)} ms; ` +
      `${stallText(stall)}; applied as ${deltas} deltas and ${reloads.length - deltas - 1} full reloads`,
  );

  const policy = await withLoopStall(async () => {
    const before = holder.current().version;
    await db.runStatements([
      { sql: `INSERT INTO "policies" ("id", "organization_id", "scope", "scope_id", "allow", "deny", "guardrails", "created_at", "updated_at") VALUES ('pol_bench', 'org_bench', 'organization', 'org_bench', '[]', '["blocked/*"]', '{}', now(), now())`, args: [] },
    ]);
    while (holder.current().version === before) await new Promise((resolve) => setImmediate(resolve));
  });
  console.log(`a policy change (configuration rebuilt, keys untouched): ${policy.ms.toFixed(1)} ms, ${stallText(policy)}; last: ${reloads.at(-1)}`);

  const full = await withLoopStall(() => holder.reload());
  console.log(`full reload in place (the safety net): ${Math.round(full.ms)} ms, ${stallText(full)}; RSS ${rssMegabytes()} MB, peak ${peakRssMegabytes()} MB`);
  await holder.stop();
  holder = undefined;
  // What the holder kept: the heap it frees when dropped (code compiled on the way stays, so it is not counted).
  await flushPool(db);
  const heapHeld = settledHeap() - heapServing;
  console.log(`held by the snapshot holder: ${megabytes(-heapHeld)} MB = ${Math.round(-heapHeld / keyCount)} bytes per key`);

  if (legacy) {
    await flushPool(db);
    const heapBase = settledHeap();
    const loaded = await withLoopStall(async () => {
      const snapshot = await loadControlPlaneSnapshot(db, { secretBox });
      return { snapshot, byHash: new Map(snapshot.apiKeys.map((key) => [key.secretHash.toLowerCase(), key])), byId: new Map(snapshot.apiKeys.map((key) => [key.id, key])) };
    });
    await flushPool(db);
    const heapLegacy = settledHeap();
    const size = loaded.result.byId.size;
    loaded.result = null;
    await flushPool(db);
    const heapDropped = settledHeap();
    console.log(
      `previous way (one list + two maps): ${Math.round(loaded.ms)} ms, ${stallText(loaded)}; ` +
        `${Math.round((heapLegacy - heapDropped) / keyCount)} bytes per key held (${size} keys; +${Math.round((heapLegacy - heapBase) / keyCount)} over the heap before); peak RSS ${peakRssMegabytes()} MB`,
    );
  }
} finally {
  await holder?.stop();
  await db.close();
  await admin.runStatements([{ sql: `DROP SCHEMA IF EXISTS "${schema}" CASCADE`, args: [] }]);
  await admin.close();
}

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

/** The longest gap between 1 ms timer ticks while `work` runs: how long the event loop was held. */
async function withLoopStall(work) {
  let last = performance.now();
  let longest = 0;
  const ticker = setInterval(() => {
    const now = performance.now();
    longest = Math.max(longest, now - last);
    last = now;
  }, 1);
  const started = performance.now();
  try {
    const result = await work();
    return { result, ms: performance.now() - started, stallMs: longest };
  } finally {
    clearInterval(ticker);
  }
}

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
  console.log(`seeded ${keyCount} keys in 1,000 projects in ${Math.round(performance.now() - seeding)} ms (schema ${schema})`);

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
  holder = createSnapshotHolder({ source, pollIntervalMs: 300, fullReloadIntervalMs: 0, onReload: (_snapshot, reason, details) => reloads.push(`${reason}:${details.mode}`) });
  const start = await withLoopStall(() => holder.start());
  const heapAfter = settledHeap();
  console.log(
    `start (full load, paged): ${Math.round(start.ms)} ms, longest event-loop stall ${start.stallMs.toFixed(1)} ms; ` +
      `heap +${megabytes(heapAfter - heapBefore)} MB = ${Math.round((heapAfter - heapBefore) / keyCount)} bytes per key; RSS ${rssBefore} -> ${rssMegabytes()} MB (peak ${peakRssMegabytes()} MB)`,
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
  let stall = 0;
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
    stall = Math.max(stall, measured.stallMs);
  }
  latencies.sort((left, right) => left - right);
  const deltas = reloads.filter((entry) => entry.endsWith(":delta")).length;
  console.log(
    `revocation (UPDATE committed -> key refused), ${latencies.length} keys: median ${latencies[latencies.length >> 1].toFixed(1)} ms, max ${latencies.at(-1).toFixed(1)} ms; ` +
      `longest stall ${stall.toFixed(1)} ms; applied as ${deltas} deltas and ${reloads.length - deltas - 1} full reloads`,
  );

  const policy = await withLoopStall(async () => {
    const before = holder.current().version;
    await db.runStatements([
      { sql: `INSERT INTO "policies" ("id", "organization_id", "scope", "scope_id", "allow", "deny", "guardrails", "created_at", "updated_at") VALUES ('pol_bench', 'org_bench', 'organization', 'org_bench', '[]', '["blocked/*"]', '{}', now(), now())`, args: [] },
    ]);
    while (holder.current().version === before) await new Promise((resolve) => setImmediate(resolve));
  });
  console.log(`a policy change (configuration rebuilt, keys untouched): ${policy.ms.toFixed(1)} ms, longest stall ${policy.stallMs.toFixed(1)} ms; last: ${reloads.at(-1)}`);

  const full = await withLoopStall(() => holder.reload());
  console.log(`full reload in place (the safety net): ${Math.round(full.ms)} ms, longest stall ${full.stallMs.toFixed(1)} ms; RSS ${rssMegabytes()} MB, peak ${peakRssMegabytes()} MB`);
  await holder.stop();
  holder = undefined;

  if (legacy) {
    const heapBase = settledHeap();
    const loaded = await withLoopStall(async () => {
      const snapshot = await loadControlPlaneSnapshot(db, { secretBox });
      return { snapshot, byHash: new Map(snapshot.apiKeys.map((key) => [key.secretHash.toLowerCase(), key])), byId: new Map(snapshot.apiKeys.map((key) => [key.id, key])) };
    });
    const heapLegacy = settledHeap();
    console.log(
      `previous way (one list + two maps): ${Math.round(loaded.ms)} ms, longest stall ${loaded.stallMs.toFixed(1)} ms; ` +
        `${Math.round((heapLegacy - heapBase) / keyCount)} bytes per key (${loaded.result.byId.size} keys); peak RSS ${peakRssMegabytes()} MB`,
    );
  }
} finally {
  await holder?.stop();
  await db.close();
  await admin.runStatements([{ sql: `DROP SCHEMA IF EXISTS "${schema}" CASCADE`, args: [] }]);
  await admin.close();
}

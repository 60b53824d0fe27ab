// The dashboard's side of `pnpm bench activity`'s gateway measurement: a separate process (so its
// CPU is not the load generator's) that queries the activity store the way the dashboard does
// (list pages with filters, details, sessions, the Usage series, an export page) back to back
// until SIGTERM, then prints `{"queries": n}`. Reads BENCH_ACTIVITY_DASHBOARD_URL (PostgreSQL URL
// with ?schema=) and BENCH_ACTIVITY_ORGANIZATION.
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const root = fileURLToPath(new URL("../../", import.meta.url));
const module = await import(pathToFileURL(join(root, "packages/db/dist/index.js")).href);
const organizationId = process.env.BENCH_ACTIVITY_ORGANIZATION;
const db = module.createDatabase({ url: process.env.BENCH_ACTIVITY_DASHBOARD_URL, postgresqlPoolSize: 2 });

let stopping = false;
let queries = 0;
process.on("SIGTERM", () => {
  stopping = true;
});

const monthMs = 30 * 86_400_000;
const work = [
  (index) => module.listActivityCalls(db, { organizationId, limit: 50, apiKeyId: `key_${index % 1000}` }),
  (index) => module.listActivityCalls(db, { organizationId, limit: 50, metadata: [{ key: "customer", value: `c${index % 500}` }] }),
  () => module.listActivityCalls(db, { organizationId, limit: 50, status: "5xx" }),
  () => module.listActivitySessions(db, { organizationId, limit: 50 }),
  () => module.listUsageSeries(db, { organizationId, from: new Date(Date.now() - monthMs), to: new Date(), interval: "day", groupBy: "model" }),
  async () => {
    for await (const batch of module.iterateActivityCalls(db, { organizationId }, { batchSize: 1000 })) return batch.length;
  },
];
process.stdout.write(`${JSON.stringify({ ready: true })}\n`);
for (let index = 0; !stopping; index += 1) {
  await work[index % work.length](index);
  queries += 1;
}
await db.close();
process.stdout.write(`${JSON.stringify({ queries })}\n`);

// `pnpm start`: the gateway and the dashboard API in one process on the embedded default
// (SQLite under ./data, in-memory counters, a built-in demo provider), or on whatever
// DATABASE_URL / REDIS_URL / GATEWAY_CONFIG say. See apps/*/README.md for every variable.
import { startDashboard } from "../apps/dashboard-api/dist/index.js";
import { startGateway } from "../apps/gateway/dist/index.js";

// The embedded default is a local, plain-http setup: let the session cookie work on localhost
// (only there; any other host still gets a Secure cookie).
process.env.DASHBOARD_INSECURE_COOKIES ??= "localhost";

let gateway;
try {
  gateway = await startGateway();
} catch (error) {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
}
const playground = typeof gateway.runtime.createPlaygroundRunner === "function" ? gateway.runtime.createPlaygroundRunner() : null;
// A control-plane write through the dashboard (a revoked key, a new policy) reaches the in-process
// gateway before the write answers. Two checks: one already in flight may have read the version
// before the write committed; the second starts after it. (With REDIS_URL the dashboard also
// announces the change to every other gateway instance.)
const snapshots = gateway.runtime.snapshots;
const onControlPlaneChange =
  typeof snapshots?.refresh === "function"
    ? async () => {
        await snapshots.refresh();
        await snapshots.refresh();
      }
    : null;
// The web app's snippets name the gateway applications call: the one listening here, unless
// DASHBOARD_GATEWAY_PUBLIC_URL says how it is reached from outside (a proxy, a public name).
// A wildcard listening address is reached through the loopback address here.
const gatewayAddress = new URL(gateway.url);
if (gatewayAddress.hostname === "0.0.0.0" || gatewayAddress.hostname === "[::]") gatewayAddress.hostname = "127.0.0.1";
const settings = process.env.DASHBOARD_GATEWAY_PUBLIC_URL?.trim() ? {} : { gatewayPublicUrl: gatewayAddress.origin };
// The budget and rate-limit statuses read the gateway's own counters (with REDIS_URL they are the shared ones).
const limitCounters =
  gateway.runtime.admission && typeof gateway.runtime.admission.readBudgetUsages === "function"
    ? { reader: gateway.runtime.admission, source: gateway.runtime.counterSource ?? "instance_counters" }
    : null;
// One database handle and one secret box for both (the dashboard encrypts what the gateway decrypts).
const dashboard = await startDashboard({
  database: gateway.database,
  secretBox: gateway.secretBox,
  playground,
  onControlPlaneChange,
  settings,
  limitCounters,
});
console.log(
  dashboard.services.settings.webRoot !== null
    ? `Dashboard: open ${dashboard.url} in a browser and sign in with the admin login.`
    : `Dashboard API on ${dashboard.url} (the web app is not built: run pnpm build).`,
);

let stopping = false;
for (const signal of ["SIGTERM", "SIGINT"]) {
  process.once(signal, async () => {
    if (stopping) return;
    stopping = true;
    await dashboard.close();
    await gateway.close();
    process.exit(0);
  });
}

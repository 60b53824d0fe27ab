// `pnpm fuzz`: a bounded local run of hostile requests (default 20,000; FUZZ_REQUESTS) against a
// real gateway process and a real dashboard process (their built `dist/main.js`, sharing one
// SQLite database, configured by a configuration file with a connection of every kind to the
// mock provider of scripts/bench). Each server measures its own event loop
// (perf_hooks.monitorEventLoopDelay, preloaded with --import, reported over IPC); /healthz of both
// is also timed from outside. Prints requests by status, the 5xx count (must be 0), answers
// without `x-request-id` or the documented error body, secrets seen in answers, the longest
// event-loop delay and RSS before and after per process, and one example per failure class.
// Exits 1 when any answer broke a rule. Then the resource classes (scripts/fuzz/resource-classes.mjs),
// each bounded in time: wide bodies (event-loop hold, alone and four at once), a connection flood
// (FUZZ_FLOOD_CONNECTIONS silent sockets, default 3,000, against a gateway started with an
// open-file limit of FUZZ_GATEWAY_FD_LIMIT, default 2,048) and slow readers of a 20 MB MCP tool
// result; a broken rule there also exits 1. Settings: FUZZ_REQUESTS, FUZZ_CONCURRENCY (16),
// FUZZ_SEED (random; printed), FUZZ_KEEP_DATA=1 keeps the temporary directory,
// FUZZ_RESOURCE_CLASSES=0 skips the resource classes (or names some: width,flood,slow-readers),
// FUZZ_GATEWAY_ENV_<NAME>=value sets <NAME> in the gateway's environment.
import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { request as httpRequest } from "node:http";
import { connect } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import fc from "fast-check";
import { createDashboardOpenApiDocument } from "../apps/dashboard-api/dist/index.js";
import { freePort, readRssMegabytes } from "./bench/process-stats.mjs";
import { gatewayCases, secretValues, writeFuzzConfig } from "./fuzz/fuzz-setup.mjs";
import { runFloodClass, runSlowReaderClass, runWidthClass } from "./fuzz/resource-classes.mjs";
import {
  answerProblems,
  authorizationShapes,
  contentTypes,
  extraHeaders,
  headerText,
  hostileBody,
  hostileNumbers,
  hostileSegment,
  hostileStrings,
} from "./fuzz/hostile-input.mjs";

const root = fileURLToPath(new URL("../", import.meta.url));
const total = Number(process.env.FUZZ_REQUESTS ?? "20000");
const concurrency = Number(process.env.FUZZ_CONCURRENCY ?? "16");
const seed = Number(process.env.FUZZ_SEED ?? randomBytes(3).readUIntBE(0, 3));
/** Larger than the CI-bounded test files: 256 KiB strings, nesting up to 100,000. */
const sizes = { hugeLength: 256 * 1024, deepDepths: [1000, 10_000, 100_000] };

/**
 * A server process: its output lines are scanned for JSON log lines of errors (by request id).
 * With `fdLimit`, it runs under that open-file limit (`ulimit -n` of a shell that then execs node).
 */
function startServer(name, entry, env, fdLimit) {
  // FUZZ_NODE_ARGS: extra node options for both servers (e.g. `--cpu-prof --cpu-prof-dir=profiles` to find a stall).
  const nodeArgs = (process.env.FUZZ_NODE_ARGS ?? "").split(" ").filter(Boolean);
  const args = [...nodeArgs, "--import", path.join(root, "scripts/fuzz/event-loop-monitor.mjs"), entry];
  const [command, commandArgs] =
    fdLimit === undefined ? [process.execPath, args] : ["/bin/sh", ["-c", `ulimit -n ${Number(fdLimit)} && exec "$0" "$@"`, process.execPath, ...args]];
  const child = spawn(command, commandArgs, {
    env: { PATH: process.env.PATH ?? "", ...env },
    stdio: ["ignore", "pipe", "pipe", "ipc"],
  });
  const server = { name, child, output: "", errorsByRequest: new Map(), maxLoopDelayMs: 0, phaseMaxMs: 0, rssSamples: [] };
  let pending = "";
  const scan = (chunk) => {
    const text = chunk.toString("utf8");
    server.output = (server.output + text).slice(-20_000);
    pending += text;
    const lines = pending.split("\n");
    pending = lines.pop() ?? "";
    for (const line of lines) {
      if (!line.startsWith("{")) continue;
      try {
        const entry = JSON.parse(line);
        const requestId = entry.request_id;
        if (typeof requestId !== "string" || (entry.level !== "error" && entry.level !== 50)) continue;
        const reason = entry.err?.message ?? entry.err ?? [entry.msg, entry.cause, entry.cause_code, entry.at?.[0]].filter(Boolean).join(" ");
        server.errorsByRequest.set(requestId, String(reason).slice(0, 300));
      } catch {
        // not a log line
      }
    }
  };
  child.stdout.on("data", scan);
  child.stderr.on("data", scan);
  child.on("message", (message) => {
    if (message?.type !== "event-loop") return;
    server.phaseMaxMs = Math.max(server.phaseMaxMs, message.maxMs);
    if (server.measuring) server.maxLoopDelayMs = Math.max(server.maxLoopDelayMs, message.maxMs);
    if (server.measuring && message.maxMs >= 500) noteStall(server.name, message.maxMs);
    server.rssSamples.push(message.rssBytes);
  });
  return server;
}

async function waitUntilHealthy(url, server) {
  for (let attempt = 0; attempt < 600; attempt += 1) {
    if (server.child.exitCode !== null) throw new Error(`${server.name} exited with ${server.child.exitCode}:\n${server.output.slice(-3000)}`);
    try {
      if ((await fetch(`${url}/healthz`)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`${server.name} did not become healthy:\n${server.output.slice(-3000)}`);
}

/**
 * Requests in flight and recently answered (to name the likely cause of a long event-loop delay:
 * the report arrives after the stall, often after the answer), and the longest delays seen.
 */
const inFlight = new Set();
const recentlyAnswered = [];
const stalls = [];
function describeSuspect(request) {
  const body = request.body ?? "";
  const nested = /(\[\[\[\[\[\[\[\[\[\[|\{"a":\{"a":\{"a":)/.test(body) ? ", deeply nested" : "";
  const huge = /x{10000}/.test(body) ? ", a huge string" : "";
  return `${request.method} ${request.path.split("?")[0].slice(0, 80)} (body ${body.length} characters${nested}${huge}${request.status === undefined ? "" : `, answered ${request.status}`})`;
}
function noteStall(serverName, maxMs) {
  const since = performance.now() - maxMs - 600;
  const suspects = [...inFlight, ...recentlyAnswered.filter((request) => request.answeredAt >= since)]
    .filter((request) => request.target === serverName)
    .sort((a, b) => (b.body?.length ?? 0) - (a.body?.length ?? 0))
    .slice(0, 3)
    .map(describeSuspect);
  stalls.push({ serverName, maxMs, suspects });
  stalls.sort((a, b) => b.maxMs - a.maxMs);
  stalls.length = Math.min(stalls.length, 5);
}

// ---------------------------------------------------------------------------------------------
// The deployment

const workDirectory = mkdtempSync(path.join(tmpdir(), "gateway-fuzz-"));
const mock = spawn(process.execPath, [path.join(root, "scripts/bench/mock-provider-server.mjs")], { stdio: ["ignore", "pipe", "pipe"] });
mock.stderr.resume();
const mockUrl = await new Promise((resolve, reject) => {
  let output = "";
  mock.stdout.on("data", (chunk) => {
    output += chunk;
    const match = /\{"url":"([^"]+)"\}/.exec(output);
    if (match) resolve(match[1]);
  });
  mock.once("exit", (code) => reject(new Error(`the mock provider exited with ${code}`)));
});
const { configPath, secrets } = writeFuzzConfig({ directory: workDirectory, mockUrl });
const shared = {
  DATABASE_URL: `file:${path.join(workDirectory, "gateway.db")}`,
  GATEWAY_SECRET_KEY: randomBytes(32).toString("base64"),
  NODE_ENV: "production",
};
const adminPassword = `admin-${randomBytes(8).toString("hex")}`;
const gatewayPort = await freePort();
const gateway = startServer("gateway", path.join(root, "apps/gateway/dist/main.js"), {
  ...shared,
  GATEWAY_CONFIG: configPath,
  GATEWAY_PORT: String(gatewayPort),
  GATEWAY_HOST: "127.0.0.1",
  GATEWAY_ADMIN_PASSWORD: adminPassword,
  GATEWAY_LOG_FORMAT: "json",
  GATEWAY_LOG_LEVEL: "warn",
  // FUZZ_GATEWAY_ENV_<NAME>=value: passed as <NAME> (to raise a limit and measure without it).
  ...Object.fromEntries(Object.entries(process.env).filter(([name]) => name.startsWith("FUZZ_GATEWAY_ENV_")).map(([name, value]) => [name.slice("FUZZ_GATEWAY_ENV_".length), value])),
}, Number(process.env.FUZZ_GATEWAY_FD_LIMIT ?? "2048"));
const gatewayUrl = `http://127.0.0.1:${gatewayPort}`;
let dashboard;
const stopAll = async () => {
  for (const child of [gateway.child, dashboard?.child, mock]) if (child && child.exitCode === null) child.kill("SIGTERM");
  await new Promise((resolve) => setTimeout(resolve, 500));
  if (process.env.FUZZ_KEEP_DATA === "1") console.log(`Data kept in ${workDirectory}`);
  else rmSync(workDirectory, { recursive: true, force: true });
};
process.once("SIGINT", async () => {
  await stopAll();
  process.exit(130);
});

const dashboardPort = await freePort();
const dashboardUrl = `http://127.0.0.1:${dashboardPort}`;
try {
  await waitUntilHealthy(gatewayUrl, gateway);
  // The gateway migrated the database and applied the file; the dashboard opens the same one.
  dashboard = startServer("dashboard", path.join(root, "apps/dashboard-api/dist/main.js"), {
    ...shared,
    DASHBOARD_PORT: String(dashboardPort),
    DASHBOARD_HOST: "127.0.0.1",
    DASHBOARD_ORIGIN: dashboardUrl,
    DASHBOARD_LOG_FORMAT: "json",
    DASHBOARD_LOG_LEVEL: "warn",
    DASHBOARD_DELIVERY_TIMEOUT_MS: "1000",
  });
  await waitUntilHealthy(dashboardUrl, dashboard);
} catch (error) {
  console.error(error instanceof Error ? error.message : error);
  await stopAll();
  process.exit(1);
}

// ---------------------------------------------------------------------------------------------
// Fixtures: a stored response, a session and one resource of every kind in the dashboard

async function json(url, init) {
  const response = await fetch(url, init);
  const text = await response.text();
  let body = null;
  try {
    body = JSON.parse(text);
  } catch {
    // not JSON
  }
  return { status: response.status, headers: response.headers, body, text };
}

const stored = await json(`${gatewayUrl}/v1/responses`, {
  method: "POST",
  headers: { authorization: `Bearer ${secrets.apiKey}`, "content-type": "application/json" },
  body: JSON.stringify({ model: "openai-mock/openai/gpt-4o-mini", input: "Say hello.", store: true }),
});
const storedResponseId = stored.body?.id ?? "resp_missing";

let ownerCookie = "";
async function signIn() {
  const answer = await fetch(`${dashboardUrl}/v1/auth/login`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ email: secrets.ownerEmail, password: secrets.ownerPassword }),
  });
  if (answer.status !== 200) throw new Error(`sign-in failed: ${answer.status} ${await answer.text()}`);
  ownerCookie = (answer.headers.get("set-cookie") ?? "").split(";")[0];
}
await signIn();

const dashboardCredential = `sk-dashboard-fuzz-${randomBytes(10).toString("hex")}`;
const channelSecret = `whsec-fuzz-${randomBytes(10).toString("hex")}`;
const ids = {};
async function create(name, pathName, body) {
  const answer = await json(`${dashboardUrl}${pathName}`, {
    method: "POST",
    headers: { cookie: ownerCookie, origin: dashboardUrl, "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  if (answer.status !== 201) console.warn(`fixture ${pathName}: ${answer.status} ${answer.text.slice(0, 200)}`);
  ids[name] = answer.body?.id ?? "missing0000000000000000000";
}
await create("project_id", "/api/projects", { name: "fuzz fixtures" });
await create("connection_id", "/api/connections", { name: "fixture", kind: "openai", credential: dashboardCredential, models: ["openai/gpt-4o-mini"] });
await create("api_key_id", "/api/api-keys", { name: "fixture", project_id: ids.project_id });
await create("team_id", "/api/teams", { name: "fixture", default_role: "member" });
await create("policy_id", "/api/policies", { scope: "project", scope_id: ids.project_id, allow: ["demo/*"] });
await create("route_id", "/api/routes", { alias: "fixture", targets: [{ model: "demo/demo/chat" }] });
await create("budget_id", "/api/budgets", { name: "fixture", scope: "project", scope_id: ids.project_id, amount_micros: 1_000_000, period: "month", mode: "soft" });
await create("rate_limit_id", "/api/rate-limits", { scope: "key", scope_id: ids.api_key_id, requests_per_window: 1_000_000 });
await create("invitation_id", "/api/invitations", { email: "invitee@fuzz.example.com", role: "viewer" });
await create("destination_id", "/api/telemetry-destinations", { name: "otlp", config: { kind: "otlp_http", endpoint: "http://127.0.0.1:9/v1/traces" } });
await create("channel_id", "/api/notification-channels", { name: "hook", config: { kind: "webhook", url: "http://127.0.0.1:9/hook", secret: channelSecret } });
await create("server_id", "/api/mcp/servers", { name: "mcp", url: "http://127.0.0.1:9/mcp", auth_kind: "oauth" });
ids.user_id = "missing0000000000000000000";
ids.token_id = "missing0000000000000000000";

const allSecrets = [...secretValues(secrets), adminPassword, dashboardCredential, channelSecret, ownerCookie.slice(ownerCookie.indexOf("=") + 1)];

// ---------------------------------------------------------------------------------------------
// Generators

const queryValue = fc.oneof(
  fc.constantFrom("1", "0", "-1", "true", "2026-01-01T00:00:00Z", "asc", "desc", "success", "error"),
  fc.constantFrom(...hostileStrings.filter((value) => !/[\ud800-\udfff]/.test(value))),
  fc.constantFrom(...hostileNumbers.map(String)),
  headerText,
);
const queryOf = (names) =>
  fc
    .array(fc.tuple(fc.constantFrom(...names, "__proto__", "constructor", "limit", "unknown"), queryValue), { maxLength: 4 })
    .map((pairs) => (pairs.length === 0 ? "" : `?${pairs.map(([name, value]) => `${name}=${encodeURIComponent(value)}`).join("&")}`));

const gatewayRequest = fc.constantFrom(...gatewayCases()).chain((route) => {
  const headers = fc
    .tuple(extraHeaders, fc.constantFrom(...contentTypes), fc.oneof(authorizationShapes(secrets.apiKey), authorizationShapes(secrets.cappedApiKey)))
    .map(([extra, contentType, authorization]) => ({ ...extra, "content-type": contentType, authorization }));
  if (route.bodies.length > 0) {
    return fc.record({ headers, body: hostileBody(route.bodies, sizes) }).map(({ headers, body }) => ({ target: "gateway", method: route.method, path: route.path, headers, body }));
  }
  const id = fc.oneof(fc.constant(storedResponseId), hostileSegment);
  return fc.record({ headers, id, query: queryOf(["limit", "order", "after", "include"]) }).map(({ headers, id, query }) => ({
    target: "gateway",
    method: route.method,
    path: `${route.path.replace("{id}", id)}${query}`,
    headers,
  }));
});

const operations = [];
for (const [pathName, methods] of Object.entries(createDashboardOpenApiDocument().paths)) {
  for (const [method, operation] of Object.entries(methods)) {
    operations.push({
      method: method.toUpperCase(),
      path: pathName,
      example: operation.requestBody?.content?.["application/json"]?.example,
      query: (operation.parameters ?? []).filter((parameter) => parameter.in === "query").map((parameter) => parameter.name),
    });
  }
}
const fillIds = (pathName) => pathName.replace(/\{([a-z_]+)\}/g, (_match, name) => ids[name] ?? "missing0000000000000000000");
const dashboardRequest = fc.constantFrom(...operations).chain((operation) => {
  // A signed-in logout would end the fixture session: logout is fuzzed without it.
  const signedIn = operation.path === "/v1/auth/logout" ? fc.constant(false) : fc.boolean();
  const cookie = fc.oneof(
    fc.constant(undefined),
    fc.constantFrom("gateway_session=", "gateway_session=forged0000000000000000", "gateway_session=%E0%A4%A", "gateway_session=__proto__", "=", "a=b; gateway_session=x; gateway_session=y"),
    headerText.map((value) => `gateway_session=${value}`),
  );
  const pathArbitrary = operation.path.includes("{")
    ? fc.oneof({ arbitrary: fc.constant(fillIds(operation.path)), weight: 3 }, { arbitrary: hostileSegment.map((segment) => operation.path.replace(/\{[a-z_]+\}/g, segment)), weight: 2 })
    : fc.constant(operation.path);
  const body = operation.example === undefined ? fc.oneof(fc.constant(undefined), hostileBody({}, sizes)) : hostileBody(operation.example, sizes);
  return fc
    .record({
      signedIn,
      cookie,
      path: pathArbitrary,
      query: queryOf(operation.query),
      origin: fc.oneof({ arbitrary: fc.constant(dashboardUrl), weight: 4 }, { arbitrary: fc.constantFrom(undefined, "null", "http://evil.test"), weight: 1 }),
      contentType: fc.constantFrom(...contentTypes),
      body,
    })
    .map((parts) => ({
      target: "dashboard",
      method: operation.method,
      path: `${parts.path}${parts.query}`,
      signedIn: parts.signedIn,
      headers: { cookie: parts.signedIn ? undefined : parts.cookie, origin: parts.origin, "content-type": parts.body === undefined ? undefined : parts.contentType },
      ...(parts.body === undefined || operation.method === "GET" ? {} : { body: parts.body }),
    }));
});

/** Requests Node's HTTP parser refuses (bad chunking, huge headers, bare LF, no Host...), sent on raw sockets. */
const rawRequests = [
  "POST /v1/chat/completions HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\nContent-Type: application/json\r\n\r\nZZ\r\n{}\r\n0\r\n\r\n",
  `GET /healthz HTTP/1.1\r\nHost: x\r\nX-Big: ${"a".repeat(20 * 1024)}\r\n\r\n`,
  "GET /v1/models HTTP/1.1\nHost: x\n\n",
  "GET /v1/models HTTP/1.1\r\n\r\n",
  "GET /v1/models HTTP/1.1\r\nHost: x\r\nX-Bad: a\u0001b\r\n\r\n",
  "POST /v1/messages HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n",
  "G@T /v1/models HTTP/1.1\r\nHost: x\r\n\r\n",
  "GET /v1/models HTTP/9.9\r\nHost: x\r\n\r\n",
  "POST /api/projects HTTP/1.1\r\nHost: x\r\nContent-Length: -1\r\n\r\n",
];
const rawRequest = fc.tuple(fc.constantFrom("gateway", "dashboard"), fc.constantFrom(...rawRequests)).map(([target, raw]) => ({ target, raw, method: raw.split(" ")[0], path: `raw: ${JSON.stringify(raw.slice(0, 60))}` }));

const anyRequest = fc.oneof({ arbitrary: gatewayRequest, weight: 68 }, { arbitrary: dashboardRequest, weight: 30 }, { arbitrary: rawRequest, weight: 2 });

// ---------------------------------------------------------------------------------------------
// Sending and checking

function sendRaw(port, raw) {
  return new Promise((resolve) => {
    const socket = connect(port, "127.0.0.1");
    let received = "";
    const finish = () => {
      socket.destroy();
      const [head] = received.split("\r\n\r\n");
      const lines = head.split("\r\n");
      const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(lines[0] ?? "")?.[1] ?? 0);
      const headers = new Headers();
      for (const line of lines.slice(1)) {
        const colon = line.indexOf(":");
        if (colon > 0) headers.append(line.slice(0, colon).trim(), line.slice(colon + 1).trim());
      }
      resolve({ status, headers, text: received.slice(head.length + 4) });
    };
    socket.setTimeout(3000, finish);
    socket.on("data", (chunk) => {
      received += chunk.toString("latin1");
    });
    socket.on("end", finish);
    socket.on("error", finish);
    socket.on("close", finish);
    socket.write(raw);
  });
}

/**
 * One request on its own connection (no keep-alive: a connection the server closed after an
 * earlier answer cannot be mistaken for a request it dropped).
 */
function sendHttp(url, { method, headers, body }) {
  // Node frames a body of DELETE (and GET) only with an explicit length.
  if (body !== undefined) headers = { ...headers, "content-length": String(Buffer.byteLength(body)) };
  return new Promise((resolve, reject) => {
    const outgoing = httpRequest(url, { method, headers, agent: false, timeout: 60_000 }, (response) => {
      const chunks = [];
      response.on("data", (chunk) => chunks.push(chunk));
      response.on("end", () => {
        const answerHeaders = new Headers();
        for (const [name, value] of Object.entries(response.headers)) {
          for (const item of Array.isArray(value) ? value : [value]) if (item !== undefined) answerHeaders.append(name, item);
        }
        resolve({ status: response.statusCode ?? 0, headers: answerHeaders, text: Buffer.concat(chunks).toString("utf8") });
      });
      response.on("error", reject);
    });
    outgoing.on("timeout", () => outgoing.destroy(new Error("no answer within 60 s")));
    outgoing.on("error", reject);
    outgoing.end(body);
  });
}

let relogin = null;
async function send(request) {
  const url = request.target === "gateway" ? gatewayUrl : dashboardUrl;
  if (request.raw !== undefined) return sendRaw(request.target === "gateway" ? gatewayPort : dashboardPort, request.raw);
  const headers = Object.fromEntries(Object.entries(request.headers).filter((entry) => entry[1] !== undefined));
  if (request.signedIn) headers.cookie = ownerCookie;
  const answer = await sendHttp(`${url}${request.path}`, { method: request.method, headers, body: request.body });
  if (request.signedIn && answer.status === 401 && headers.cookie === ownerCookie) {
    relogin ??= signIn()
      .catch((error) => console.warn(`signing in again failed: ${error.message}`))
      .finally(() => (relogin = null));
  }
  return answer;
}

const byStatus = { gateway: new Map(), dashboard: new Map() };
const counts = { fiveHundreds: 0, noRequestId: 0, badErrorBody: 0, secrets: 0, transportErrors: 0 };
let sent = 0;

/** Failed answers; grouped into classes at the end, when the servers' log lines (written asynchronously) have arrived. */
const failures = [];
function recordFailure(request, answer, problems, server) {
  failures.push({
    server,
    requestId: answer.headers.get("x-request-id") ?? "",
    target: request.target,
    method: request.method,
    path: request.path,
    raw: request.raw !== undefined,
    status: answer.status,
    problems,
    body: request.body === undefined ? undefined : `${request.body.slice(0, 300)}${request.body.length > 300 ? ` ... (${request.body.length} characters)` : ""}`,
    headers: request.headers ? JSON.stringify(Object.fromEntries(Object.entries(request.headers).filter((entry) => entry[1] !== undefined))).slice(0, 300) : undefined,
    answer: answer.text.slice(0, 200),
  });
}

/** Failure classes: target, method, route pattern, status, kinds of problem and the server's logged reason. */
function classify() {
  const classes = new Map();
  for (const failure of failures) {
    const route = failure.raw ? failure.path : failure.path.split("?")[0].replace(/\/[^/]*%[^/]*|\/(?:resp|cm|req)[A-Za-z0-9_]{10,}/g, "/{id}");
    const reason = (failure.server.errorsByRequest.get(failure.requestId) ?? "").replace(/req_[A-Za-z0-9]+/g, "req_*");
    const kinds = failure.problems.map((problem) => problem.replace(/:.*$/s, "")).join(", ");
    const key = `${failure.target} ${failure.method} ${route} -> ${failure.status} ${kinds}${reason ? ` | ${reason}` : ""}`;
    const existing = classes.get(key);
    if (existing) existing.count += 1;
    else classes.set(key, { count: 1, example: { ...failure, reason } });
  }
  return classes;
}

async function healthProbe(url, record) {
  const started = performance.now();
  try {
    await (await fetch(`${url}/healthz`, { signal: AbortSignal.timeout(30_000) })).text();
  } catch {
    // counted as the time waited
  }
  record(performance.now() - started);
}

const rssBefore = { gateway: readRssMegabytes(gateway.child.pid), dashboard: readRssMegabytes(dashboard.child.pid) };
const healthzMaxMs = { gateway: 0, dashboard: 0 };
gateway.measuring = true;
dashboard.measuring = true;
let probing = true;
const prober = (async () => {
  while (probing) {
    await Promise.all([
      healthProbe(gatewayUrl, (ms) => (healthzMaxMs.gateway = Math.max(healthzMaxMs.gateway, ms))),
      healthProbe(dashboardUrl, (ms) => (healthzMaxMs.dashboard = Math.max(healthzMaxMs.dashboard, ms))),
    ]);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
})();

console.log(`pnpm fuzz: ${total} requests, concurrency ${concurrency}, seed ${seed} (FUZZ_SEED=${seed} repeats this run)`);
const startedAt = performance.now();
const batchSize = 200;
let batchIndex = 0;
let queue = [];
function nextRequest() {
  if (sent >= total) return null;
  if (queue.length === 0) queue = fc.sample(anyRequest, { numRuns: batchSize, seed: seed + batchIndex++ });
  sent += 1;
  return queue.pop();
}

async function worker() {
  for (let request = nextRequest(); request !== null; request = nextRequest()) {
    if (relogin !== null) await relogin;
    const server = request.target === "gateway" ? gateway : dashboard;
    let answer;
    inFlight.add(request);
    try {
      answer = await send(request);
    } catch (error) {
      answer = { status: 0, headers: new Headers(), text: `no answer: ${error.code ?? error.message}` };
    }
    inFlight.delete(request);
    recentlyAnswered.push(Object.assign(request, { answeredAt: performance.now(), status: answer.status }));
    if (recentlyAnswered.length > 300) recentlyAnswered.shift();
    if (answer.status === 0) counts.transportErrors += 1;
    const statusTable = byStatus[request.target];
    statusTable.set(answer.status, (statusTable.get(answer.status) ?? 0) + 1);
    const upstreamFailures = request.target === "dashboard" && /\/(test|oauth)(\?|$)/.test(request.path);
    const problems = answer.status === 0 ? [answer.text || "no answer (connection closed or 3 s without a byte)"] : answerProblems(answer, { errorBody: request.target, secrets: allSecrets, upstreamFailures });
    if (problems.some((problem) => problem.startsWith("status "))) counts.fiveHundreds += 1;
    if (problems.some((problem) => problem === "no x-request-id")) counts.noRequestId += 1;
    if (problems.some((problem) => problem.startsWith("not the documented") || problem.startsWith("error body is not JSON"))) counts.badErrorBody += 1;
    if (problems.some((problem) => problem.startsWith("a secret"))) counts.secrets += 1;
    if (problems.length > 0) recordFailure(request, answer, problems, server);
    if (sent % 2000 === 0 && sent > 0 && process.stdout.isTTY) process.stdout.write(`  ${sent} sent\r`);
  }
}
try {
  await Promise.all(Array.from({ length: concurrency }, () => worker()));
} catch (error) {
  console.error(error);
  probing = false;
  await stopAll();
  process.exit(1);
}
const seconds = (performance.now() - startedAt) / 1000;
probing = false;
await prober;
// One more monitor report after the load.
await new Promise((resolve) => setTimeout(resolve, 600));
const rssAfter = { gateway: readRssMegabytes(gateway.child.pid), dashboard: readRssMegabytes(dashboard.child.pid) };

const format = (table) =>
  [...table.entries()]
    .sort((a, b) => a[0] - b[0])
    .map(([status, count]) => `${status === 0 ? "no answer" : status}: ${count}`)
    .join(", ");
const gatewayCount = [...byStatus.gateway.values()].reduce((sum, count) => sum + count, 0);
const dashboardCount = [...byStatus.dashboard.values()].reduce((sum, count) => sum + count, 0);
console.log(`\n${total} requests in ${seconds.toFixed(1)} s (gateway ${gatewayCount}, dashboard ${dashboardCount})`);
console.log("Requests by status:");
console.log(`  gateway:   ${format(byStatus.gateway)}`);
console.log(`  dashboard: ${format(byStatus.dashboard)}`);
console.log(`5xx answers: ${counts.fiveHundreds} (must be 0)`);
console.log(`Answers without x-request-id: ${counts.noRequestId}`);
console.log(`Errors not in the documented body: ${counts.badErrorBody}`);
console.log(`Answers with a secret: ${counts.secrets}`);
if (counts.transportErrors > 0) console.log(`Requests without any answer (connection closed, or no answer in time): ${counts.transportErrors}`);
console.log("Max event-loop delay (monitorEventLoopDelay inside each server):");
console.log(`  gateway:   ${gateway.maxLoopDelayMs.toFixed(1)} ms (longest /healthz wait seen by the load generator ${healthzMaxMs.gateway.toFixed(1)} ms)`);
console.log(`  dashboard: ${dashboard.maxLoopDelayMs.toFixed(1)} ms (longest /healthz wait seen by the load generator ${healthzMaxMs.dashboard.toFixed(1)} ms)`);
for (const stall of stalls) console.log(`  ${stall.serverName} loop delayed ${stall.maxMs.toFixed(0)} ms; largest requests in flight or just answered: ${stall.suspects.join("; ") || "none"}`);
console.log("RSS before -> after:");
console.log(`  gateway:   ${rssBefore.gateway.toFixed(1)} MB -> ${rssAfter.gateway.toFixed(1)} MB`);
console.log(`  dashboard: ${rssBefore.dashboard.toFixed(1)} MB -> ${rssAfter.dashboard.toFixed(1)} MB`);
// The servers' last log lines.
await new Promise((resolve) => setTimeout(resolve, 500));
const classes = classify();
if (classes.size > 0) {
  console.log(`\nFailure classes (${classes.size}; one example each):`);
  for (const [key, { count, example }] of [...classes.entries()].sort((a, b) => b[1].count - a[1].count)) {
    console.log(`- ${count} x ${key}`);
    console.log(`    request: ${`${example.method} ${example.path}`.slice(0, 300)}`);
    console.log(`    problems: ${example.problems.join("; ").slice(0, 300)}`);
    if (example.reason) console.log(`    server log: ${example.reason}`);
    if (example.headers) console.log(`    headers: ${example.headers}`);
    if (example.body !== undefined) console.log(`    body: ${example.body}`);
    console.log(`    answer: ${JSON.stringify(example.answer)}`);
  }
}
const resourceRulesBroken = [];
const runResourceClasses = process.env.FUZZ_RESOURCE_CLASSES !== "0";
let bulkMcp = null;
if (runResourceClasses) {
  gateway.measuring = false;
  dashboard.measuring = false;
  // The slow-reader class's MCP server (one tool with a 20 MB result), registered after the
  // request fuzz so that no fuzzed dashboard request changes it.
  bulkMcp = await (await import("../packages/mcp/dist/testing/index.js")).startLocalMcpServer({
    name: "bulk",
    tools: [{ name: "big", handler: () => ({ content: [{ type: "text", text: "x".repeat(20 * 1024 * 1024) }] }) }],
  });
  await signIn();
  await create("bulk_server_id", "/api/mcp/servers", { name: "bulk", url: bulkMcp.url, auth_kind: "none" });
  // The gateway polls the control plane every 300 ms.
  await new Promise((resolve) => setTimeout(resolve, 1_500));
  const floodCount = Number(process.env.FUZZ_FLOOD_CONNECTIONS ?? "3000");
  const chosen = new Set((process.env.FUZZ_RESOURCE_CLASSES ?? "width,flood,slow-readers").split(","));
  const classes = [
    ["width", "Wide bodies (the gateway's longest event-loop delay per request; budget 50 ms alone, 200 ms four at once)", () => runWidthClass({ gateway, gatewayUrl, apiKey: secrets.apiKey })],
    ["flood", "Connection flood", () => runFloodClass({ gatewayUrl, gatewayPort, count: floodCount })],
    ["slow-readers", "Slow readers", () => runSlowReaderClass({ gateway, gatewayPort, apiKey: secrets.apiKey, toolName: "bulk__big" })],
  ].filter(([name]) => chosen.has(name));
  for (const [, title, run] of classes) {
    const started = performance.now();
    let outcome;
    try {
      outcome = await run();
    } catch (error) {
      outcome = { lines: [], broken: [`the class failed: ${error instanceof Error ? error.message : String(error)}`] };
    }
    console.log(`\n${title} (${((performance.now() - started) / 1000).toFixed(1)} s):`);
    for (const line of outcome.lines) console.log(line);
    for (const rule of outcome.broken) console.log(`  BROKEN: ${rule}`);
    resourceRulesBroken.push(...outcome.broken);
    if (gateway.child.exitCode !== null || gateway.child.signalCode !== null) {
      console.log(`  BROKEN: the gateway exited (${gateway.child.exitCode ?? gateway.child.signalCode}); its last output:\n${gateway.output.slice(-1500)}`);
      resourceRulesBroken.push(`the gateway exited during: ${title}`);
      break;
    }
  }
}
await bulkMcp?.close();
await stopAll();
const failed = counts.fiveHundreds + counts.noRequestId + counts.badErrorBody + counts.secrets + counts.transportErrors + resourceRulesBroken.length > 0;
process.exit(failed ? 1 : 0);

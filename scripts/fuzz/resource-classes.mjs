// The resource classes of `pnpm fuzz`, each bounded in time and run against the real gateway
// process on loopback after the request fuzz:
// - width: bodies wide at the default body limit (500,000 keys in one object, 1,000,000 token
//   ids, many small objects), each alone and four at once, with the gateway's own event-loop
//   delay and a concurrent /healthz timed from outside;
// - flood: silent connections from another loopback address (127.0.0.2) past the gateway's
//   connection cap, then /healthz from 127.0.0.1; and unauthenticated slow bodies, which must be
//   answered and closed at once;
// - slow readers: clients that ask for a 20 MB MCP tool result (a local MCP server) and never
//   read it, with the gateway's RSS while they stay.
// Each class returns lines for the report and a list of broken rules (an empty list: passed).
import { connect } from "node:net";
import { readRssMegabytes } from "../bench/process-stats.mjs";

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** Answers the longest event-loop delay the server reported while `work` ran (reports come every 250 ms). */
async function holdOf(server, work) {
  await sleep(300);
  server.phaseMaxMs = 0;
  const result = await work();
  await sleep(600);
  return { result, loopMs: server.phaseMaxMs };
}

/** One POST of a prepared body; resolves with its status and time (0: no answer). */
async function post(url, body, headers) {
  const started = performance.now();
  try {
    const response = await fetch(url, { method: "POST", headers: { "content-type": "application/json", ...headers }, body, signal: AbortSignal.timeout(60_000) });
    await response.arrayBuffer();
    return { status: response.status, ms: performance.now() - started };
  } catch {
    return { status: 0, ms: performance.now() - started };
  }
}

async function healthWait(url) {
  const started = performance.now();
  try {
    await (await fetch(`${url}/healthz`, { signal: AbortSignal.timeout(30_000) })).text();
    return performance.now() - started;
  } catch {
    return Number.POSITIVE_INFINITY;
  }
}

const keysObject = (count) => `{${Array.from({ length: count }, (_, index) => `"k${index}":${index}`).join(",")}}`;

/** The width bodies: route, body and what the report calls it. */
function widthBodies() {
  const wideKeys = keysObject(500_000);
  const tokens = `[${Array.from({ length: 1_000_000 }, (_, index) => index % 50_000).join(",")}]`;
  const manySmall = `[${Array.from({ length: 140_000 }, (_, index) => `{"role":"user","content":"m${index}"}`).join(",")}]`;
  const acceptedTokens = `[${Array.from({ length: 290_000 }, (_, index) => index % 50_000).join(",")}]`;
  return [
    { name: "MCP tools/list, params with 500,000 keys", path: "/mcp", body: `{"jsonrpc":"2.0","id":1,"method":"tools/list","params":${wideKeys}}`, mcp: true },
    { name: "/v1/responses, metadata with 500,000 keys", path: "/v1/responses", body: `{"model":"openai-mock/openai/gpt-4o-mini","input":"hi","metadata":${wideKeys}}` },
    { name: "/v1/systemone (native passthrough), a field with 500,000 keys", path: "/v1/systemone", body: `{"model":"native/systemone/s1","input":{"x":1},"extra":${wideKeys}}` },
    { name: "/v1/chat/completions, 140,000 small messages", path: "/v1/chat/completions", body: `{"model":"openai-mock/openai/gpt-4o-mini","messages":${manySmall}}` },
    { name: "/v1/embeddings, 1,000,000 token ids", path: "/v1/embeddings", body: `{"model":"openai-mock/openai/text-embedding-3-small","input":[${tokens}]}` },
    { name: "/v1/embeddings, 290,000 token ids (accepted)", path: "/v1/embeddings", body: `{"model":"openai-mock/openai/text-embedding-3-small","input":[${acceptedTokens}]}` },
  ];
}

/**
 * Width: each body alone (the gateway's longest event-loop delay and a concurrent /healthz), then
 * four at once. Rules: never a 5xx, no single one holds the loop over `singleBudgetMs`, four
 * over `fourBudgetMs`.
 */
export async function runWidthClass({ gateway, gatewayUrl, apiKey, singleBudgetMs = 50, fourBudgetMs = 200 }) {
  const lines = [];
  const broken = [];
  const headers = { authorization: `Bearer ${apiKey}` };
  for (const { name, path, body, mcp } of widthBodies()) {
    const extra = mcp ? { accept: "application/json, text/event-stream" } : {};
    const single = await holdOf(gateway, async () => {
      const [answer, healthMs] = await Promise.all([post(`${gatewayUrl}${path}`, body, { ...headers, ...extra }), sleep(5).then(() => healthWait(gatewayUrl))]);
      return { answer, healthMs };
    });
    const four = await holdOf(gateway, async () => {
      const answers = await Promise.all(Array.from({ length: 4 }, () => post(`${gatewayUrl}${path}`, body, { ...headers, ...extra })));
      return answers;
    });
    const statuses = [single.result.answer.status, ...four.result.map((answer) => answer.status)];
    lines.push(
      `  ${name} (${(body.length / 1e6).toFixed(1)} MB): ${single.result.answer.status} in ${single.result.answer.ms.toFixed(0)} ms, loop held ${single.loopMs.toFixed(0)} ms, /healthz waited ${single.result.healthMs.toFixed(0)} ms; four at once: loop held ${four.loopMs.toFixed(0)} ms`,
    );
    if (statuses.some((status) => status === 0 || status >= 500)) broken.push(`${name}: answers ${statuses.join(", ")}`);
    if (single.loopMs > singleBudgetMs) broken.push(`${name}: one request held the event loop ${single.loopMs.toFixed(0)} ms (budget ${singleBudgetMs})`);
    if (four.loopMs > fourBudgetMs) broken.push(`${name}: four at once held the event loop ${four.loopMs.toFixed(0)} ms (budget ${fourBudgetMs})`);
  }
  return { lines, broken };
}

/** Opens one socket from `localAddress`; resolves with it, or null when the connection failed. */
function openSocket(port, localAddress) {
  return new Promise((resolve) => {
    const socket = connect({ host: "127.0.0.1", port, localAddress });
    socket.once("connect", () => resolve(socket));
    socket.once("error", () => resolve(null));
    socket.on("error", () => undefined);
    socket.setTimeout(10_000, () => resolve(null));
  });
}

/**
 * Flood: `count` silent connections from 127.0.0.2 (opened 100 at a time), then /healthz from
 * 127.0.0.1 while they are held; then `slowBodies` unauthenticated requests that trickle their
 * bodies, each of which must be answered 401 and closed within 5 s. All sockets are closed at the
 * end. Rules: /healthz answers within 5 s; each slow body is closed within 5 s.
 */
export async function runFloodClass({ gatewayUrl, gatewayPort, count, slowBodies = 50 }) {
  const lines = [];
  const broken = [];
  const sockets = [];
  let failed = 0;
  try {
    for (let opened = 0; opened < count; opened += 100) {
      const batch = await Promise.all(Array.from({ length: Math.min(100, count - opened) }, () => openSocket(gatewayPort, "127.0.0.2")));
      for (const socket of batch) {
        if (socket === null) failed += 1;
        else sockets.push(socket);
      }
    }
    await sleep(500);
    const stillOpen = sockets.filter((socket) => !socket.destroyed).length;
    const healthMs = await healthWait(gatewayUrl);
    lines.push(`  ${count} silent connections from 127.0.0.2: ${stillOpen} still open, ${sockets.length - stillOpen} closed by the gateway, ${failed} refused; /healthz from 127.0.0.1: ${Number.isFinite(healthMs) ? `${healthMs.toFixed(0)} ms` : "no answer"}`);
    if (!(healthMs < 5_000)) broken.push(`flood: /healthz did not answer within 5 s under ${count} silent connections`);
  } finally {
    for (const socket of sockets) socket.destroy();
  }
  await sleep(500);
  const closedMs = await Promise.all(
    Array.from({ length: slowBodies }, async () => {
      const socket = await openSocket(gatewayPort, "127.0.0.2");
      if (socket === null) return Number.POSITIVE_INFINITY;
      const started = performance.now();
      const closed = new Promise((resolve) => socket.once("close", () => resolve(performance.now() - started)));
      socket.write("POST /v1/chat/completions HTTP/1.1\r\nhost: gateway\r\ncontent-type: application/json\r\ncontent-length: 1000000\r\n\r\n{");
      const trickle = setInterval(() => socket.writable && socket.write(" "), 200);
      const ms = await Promise.race([closed, sleep(5_000).then(() => Number.POSITIVE_INFINITY)]);
      clearInterval(trickle);
      socket.destroy();
      return ms;
    }),
  );
  const slowest = Math.max(...closedMs);
  lines.push(`  ${slowBodies} unauthenticated slow bodies: the last connection closed ${Number.isFinite(slowest) ? `${slowest.toFixed(0)} ms after its headers` : "not within 5 s"}`);
  if (!Number.isFinite(slowest)) broken.push(`flood: ${closedMs.filter((ms) => !Number.isFinite(ms)).length} unauthenticated slow bodies stayed open over 5 s after their 401`);
  return { lines, broken };
}

/**
 * Slow readers: `clients` raw connections each ask the MCP tool `toolName` (a 20 MB result) and
 * never read; the gateway's RSS is read before, while they stay (`holdMs`), and after they left.
 * Rule: RSS while they stay grows by at most `budgetMegabytes`.
 */
export async function runSlowReaderClass({ gateway, gatewayPort, apiKey, toolName, clients = 30, holdMs = 15_000, budgetMegabytes = 200 }) {
  const lines = [];
  const broken = [];
  const before = readRssMegabytes(gateway.child.pid);
  const body = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: toolName, arguments: {} } });
  const sockets = [];
  let peak = before;
  try {
    for (let index = 0; index < clients; index++) {
      const socket = await openSocket(gatewayPort, "127.0.0.1");
      if (socket === null) continue;
      sockets.push(socket);
      socket.pause();
      socket.write(
        `POST /mcp HTTP/1.1\r\nhost: gateway\r\nauthorization: Bearer ${apiKey}\r\ncontent-type: application/json\r\naccept: application/json, text/event-stream\r\ncontent-length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
      );
    }
    const until = performance.now() + holdMs;
    while (performance.now() < until) {
      await sleep(250);
      peak = Math.max(peak, readRssMegabytes(gateway.child.pid));
    }
  } finally {
    for (const socket of sockets) socket.destroy();
  }
  await sleep(1_000);
  const after = readRssMegabytes(gateway.child.pid);
  lines.push(`  ${clients} clients asking a 20 MB MCP tool result and not reading: RSS ${before.toFixed(0)} MB -> peak ${peak.toFixed(0)} MB while they stay -> ${after.toFixed(0)} MB after`);
  if (peak - before > budgetMegabytes) broken.push(`slow readers: RSS grew ${(peak - before).toFixed(0)} MB while they stayed (budget ${budgetMegabytes} MB)`);
  return { lines, broken };
}

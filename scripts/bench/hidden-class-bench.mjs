// Hidden classes (V8 maps) the gateway makes per request, by scenario. A request should make
// none: every object it builds should reuse a shape made once. Code that does not (on Node 20:
// a spread copy that then gains a key, `{ ...body, extra }`; an object literal with a getter; a
// generator function declared inside another function; `delete` on a copy) makes new maps and
// descriptor arrays on every call, in the old generation, and their young objects survive
// scavenges: old-generation growth, then mark-compacts in the tail. This benchmark runs the
// gateway with V8's map log (`--log-maps`) through one scenario after another and counts, per
// scenario, the map events that come back on (nearly) every request, with the code position
// (line:column in the built bundle) and the property or reason of each. Figures, never asserted.
// Counted: new maps (transitions, copies) and dictionary normalizations. One gateway per scenario.
// HIDDEN_CLASS_REQUESTS (default 400) requests per scenario, after as many to warm up.
import { closeSync, fstatSync, mkdtempSync, openSync, readFileSync, readSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { startBenchEnvironment } from "./gateway-bench.mjs";
import { openLoop } from "./load-generator.mjs";

const root = fileURLToPath(new URL("../../", import.meta.url));
const requests = Number(process.env.HIDDEN_CLASS_REQUESTS ?? "400");
const rate = 300;

/** The scenarios: a name and the request, built from the environment's gateway URL and key. */
function scenarios(env) {
  const url = (path) => `${env.gatewayUrl}${path}`;
  const bearer = { "content-type": "application/json", authorization: `Bearer ${env.apiKey}` };
  const anthropicHeaders = { "content-type": "application/json", "x-api-key": env.apiKey, "anthropic-version": "2023-06-01" };
  const chat = (model, extra = {}) => ({ url: url("/v1/chat/completions"), headers: bearer, body: JSON.stringify({ model, messages: [{ role: "user", content: "Say hello." }], ...extra }) });
  const messages = (model, extra = {}) => ({
    url: url("/v1/messages"),
    headers: anthropicHeaders,
    body: JSON.stringify({ model, max_tokens: 64, messages: [{ role: "user", content: "Say hello." }], ...extra }),
  });
  const tools = [{ type: "function", function: { name: "lookup", description: "Looks a word up.", parameters: { type: "object", properties: { word: { type: "string" } } } } }];
  return [
    ["chat", chat("mock/bench/model")],
    ["chat stream (no stream_options)", chat("mock/bench/model", { stream: true })],
    ["chat with tools", chat("mock/bench/model", { tools, temperature: 0.2 })],
    ["chat -> anthropic", chat("mock-anthropic/bench/claude")],
    ["chat stream -> anthropic", chat("mock-anthropic/bench/claude", { stream: true })],
    ["messages", messages("mock-anthropic/bench/claude")],
    ["messages stream", messages("mock-anthropic/bench/claude", { stream: true })],
    ["messages -> openai", messages("mock/bench/model")],
    ["messages stream -> openai", messages("mock/bench/model", { stream: true })],
    ["count_tokens", { url: url("/v1/messages/count_tokens"), headers: anthropicHeaders, body: JSON.stringify({ model: "mock-anthropic/bench/claude", messages: [{ role: "user", content: "Say hello." }] }) }],
    ["responses", { url: url("/v1/responses"), headers: bearer, body: JSON.stringify({ model: "mock/bench/model", input: "Say hello." }) }],
    ["responses stream", { url: url("/v1/responses"), headers: bearer, body: JSON.stringify({ model: "mock/bench/model", input: "Say hello.", stream: true }) }],
    ["responses -> chat", { url: url("/v1/responses"), headers: bearer, body: JSON.stringify({ model: "mock-chat/bench/model", input: "Say hello.", store: false }) }],
    ["embeddings", { url: url("/v1/embeddings"), headers: bearer, body: JSON.stringify({ model: "mock-chat/bench/embed", input: "Say hello." }) }],
    ["models", { url: url("/v1/models"), headers: { authorization: `Bearer ${env.apiKey}` } }],
    ["401 (no key)", { url: url("/v1/models"), headers: {} }],
    ["400 (bad JSON)", { url: url("/v1/chat/completions"), headers: bearer, body: "{" }],
    ["404 (model)", chat("mock/unknown-model")],
  ];
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 300));

function logSize(file) {
  const descriptor = openSync(file, "r");
  const { size } = fstatSync(descriptor);
  closeSync(descriptor);
  return size;
}

/** Map events of the log between two offsets, counted by kind, position and name or reason. */
function countMapEvents(file, from, to) {
  const descriptor = openSync(file, "r");
  const buffer = Buffer.alloc(to - from);
  readSync(descriptor, buffer, 0, buffer.length, from);
  closeSync(descriptor);
  const counts = new Map();
  for (const line of buffer.toString("latin1").split("\n")) {
    if (!line.startsWith("map,")) continue;
    // map,<kind>,<time>,<from>,<to>,<pc>,<line>,<column>,<reason>,<name>
    const fields = line.split(",");
    const key = `${fields[1]} at ${fields[6]}:${fields[7]} ${fields[8] || ""} ${fields[9] ?? ""}`.replace(/\s+/g, " ").trim();
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  return counts;
}

/** Built bundles whose line `line` mentions `name`: where a reported position probably is. */
function locate(line, name) {
  if (!name || line < 1) return [];
  const bundles = [join(root, "apps/gateway/dist"), ...readdirSync(join(root, "packages")).map((name) => join(root, "packages", name, "dist"))];
  const found = [];
  for (const directory of bundles) {
    let files = [];
    try {
      files = readdirSync(directory).filter((file) => file.endsWith(".js"));
    } catch {
      continue;
    }
    for (const file of files) {
      const text = readFileSync(join(directory, file), "utf8").split("\n")[line - 1];
      if (text?.includes(name)) found.push(`${join(directory, file).slice(root.length)}:${line}`);
    }
  }
  return found;
}

export async function runHiddenClassBenchmark() {
  const rows = [];
  // One gateway per scenario: an inline cache that earlier scenarios made megamorphic takes
  // V8's generic path, which would hide a scenario's own shapes.
  const count = scenarios({ gatewayUrl: "", apiKey: "" }).length;
  for (let index = 0; index < count; index += 1) {
    const logDirectory = mkdtempSync(join(tmpdir(), "gateway-maps-"));
    const logFile = join(logDirectory, "v8.log");
    const env = await startBenchEnvironment({
      gatewayNodeArgs: ["--log-maps", `--logfile=${logFile}`, "--no-logfile-per-isolate"],
      extraConnections: (mockUrl) => [
        { name: "mock-anthropic", kind: "anthropic", baseUrl: mockUrl, credential: "mock-credential", models: ["bench/claude"] },
        { name: "mock-chat", kind: "openai", baseUrl: mockUrl, credential: "mock-credential", models: ["bench/model", "bench/embed"] },
      ],
    });
    try {
      const [name, target] = scenarios(env)[index];
      await openLoop({ target, rate, durationSeconds: requests / rate, connections: 16 });
      await settle();
      const from = logSize(logFile);
      const run = await openLoop({ target, rate, durationSeconds: requests / rate, connections: 16 });
      await settle();
      const counts = countMapEvents(logFile, from, logSize(logFile));
      // Per-request events come back on (nearly) every request; one-off events (a lazily compiled
      // function's first maps) do not.
      const recurring = [...counts].filter(([, count]) => count >= requests * 0.5).sort((a, b) => b[1] - a[1]);
      const perRequest = recurring.reduce((sum, [, count]) => sum + count, 0) / requests;
      rows.push({ name, statuses: run.ok === run.sent ? "2xx" : `${run.sent - run.ok} not 2xx`, perRequest, recurring });
    } finally {
      await env.close();
      rmSync(logDirectory, { recursive: true, force: true });
    }
  }
  console.log("| scenario | answers | hidden-class changes per request |");
  console.log("| --- | --- | --- |");
  for (const row of rows) console.log(`| ${row.name} | ${row.statuses} | ${row.perRequest.toFixed(2)} |`);
  for (const row of rows) {
    if (row.recurring.length === 0) continue;
    console.log(`\n${row.name}:`);
    for (const [key, count] of row.recurring) {
      const [, line, name] = /at (\d+):-?\d+ (?:\S+ )?(\S+)?$/.exec(key) ?? [];
      const where = locate(Number(line), name);
      console.log(`  ${(count / requests).toFixed(2)} per request: ${key}${where.length > 0 ? ` (${where.join(", ")})` : ""}`);
    }
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await runHiddenClassBenchmark();

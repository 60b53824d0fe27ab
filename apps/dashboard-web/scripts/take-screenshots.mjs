// `pnpm --filter @gateway/dashboard-web screenshots`: the screenshots under docs/screenshots/.
// Starts what `pnpm start` starts on a fresh database (apps built first: `pnpm build`), fills it
// through the dashboard API and the gateway (projects, keys, a connection, routes, a policy with
// guardrails, budgets, limits, a team, invitations, integrations, real calls and a streamed
// playground chat), adds a week of synthetic usage events so the charts have a history, and
// photographs the main screens in Debian's Chromium (CHROMIUM_PATH, default /usr/bin/chromium).
import { spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { createDatabase, loadSecretBoxFromEnvironment, writeUsageBatch } from "@gateway/db";
import { chromium } from "playwright-core";

const repositoryRoot = fileURLToPath(new URL("../../../", import.meta.url));
const outputDirectory = path.join(repositoryRoot, "docs/screenshots");
const chromiumPath = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
const password = "screenshots only passphrase";

const port = await new Promise((resolve) => {
  const probe = createServer().listen(0, "127.0.0.1", () => {
    const { port: free } = probe.address();
    probe.close(() => resolve(free));
  });
});
const directory = mkdtempSync(path.join(tmpdir(), "dashboard-screenshots-"));
const dashboardUrl = `http://127.0.0.1:${port}`;
let output = "";
const child = spawn(process.execPath, [path.join(repositoryRoot, "scripts/start.mjs")], {
  cwd: directory,
  env: {
    PATH: process.env.PATH ?? "",
    GATEWAY_DATA_DIR: path.join(directory, "data"),
    GATEWAY_PORT: "0",
    GATEWAY_ADMIN_PASSWORD: password,
    GATEWAY_USAGE_FLUSH_MS: "100",
    DASHBOARD_PORT: String(port),
    DASHBOARD_ORIGIN: dashboardUrl,
    // The new-key snippet shows the address a default `pnpm start` serves, not this run's free port.
    DASHBOARD_GATEWAY_PUBLIC_URL: "http://127.0.0.1:8080",
  },
  stdio: ["ignore", "pipe", "pipe"],
});
child.stdout.on("data", (chunk) => (output += chunk));
child.stderr.on("data", (chunk) => (output += chunk));

let browser;
let database;
try {
  const deadline = Date.now() + 30_000;
  // Both apps log their own line (in no fixed order).
  while (!/dashboard API listening/.test(output) || !/Gateway listening on/.test(output)) {
    if (child.exitCode !== null || Date.now() > deadline) throw new Error(`pnpm start did not come up:\n${output}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  const gatewayUrl = /Gateway listening on (http:\/\/\S+)/.exec(output)[1];

  // The dashboard API as the owner.
  const login = await fetch(`${dashboardUrl}/v1/auth/login`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ email: "admin@gateway.local", password }) });
  const cookie = login.headers.get("set-cookie").split(";")[0];
  const organizationId = (await login.json()).organization.id;
  const api = async (method, route, body) => {
    const response = await fetch(`${dashboardUrl}${route}`, { method, headers: { cookie, origin: dashboardUrl, "content-type": "application/json" }, body: body === undefined ? undefined : JSON.stringify(body) });
    const text = await response.text();
    if (!response.ok) throw new Error(`${method} ${route}: ${response.status} ${text}`);
    return text ? JSON.parse(text) : null;
  };
  const defaultProject = (await api("GET", "/api/projects")).data[0];
  const checkout = await api("POST", "/api/projects", { name: "Checkout", description: "Order summaries and fraud checks" });
  const support = await api("POST", "/api/projects", { name: "Support bot", description: "Customer support assistant" });
  const platform = await api("POST", "/api/teams", { name: "Platform", default_role: "member" });
  const keys = {
    checkout: await api("POST", "/api/api-keys", { name: "checkout-prod", project_id: checkout.id }),
    support: await api("POST", "/api/api-keys", { name: "support-prod", project_id: support.id, team_id: platform.id }),
    ci: await api("POST", "/api/api-keys", { name: "ci", project_id: defaultProject.id }),
  };
  const laptop = await api("POST", "/api/api-keys", { name: "old laptop", project_id: defaultProject.id });
  await api("DELETE", `/api/api-keys/${laptop.id}`);
  const connections = (await api("GET", "/api/connections")).data;
  const demo = connections.find((connection) => connection.kind === "demo");
  await api("PATCH", `/api/connections/${demo.id}`, { prices: { "demo/chat": { input: 0.15, output: 0.6 }, "demo/decide": { input: 0.15, output: 0.6 } } });
  await api("POST", "/api/connections", {
    name: "openai",
    kind: "openai",
    credential: "sk-screenshot-placeholder",
    models: ["openai/gpt-4o-mini", "openai/gpt-4o"],
    prices: { "openai/gpt-4o-mini": { input: 0.15, output: 0.6 }, "openai/gpt-4o": { input: 2.5, output: 10 } },
    enabled: false,
  });
  await api("POST", "/api/routes", { alias: "fast", strategy: "priority", targets: [{ model: "openai/openai/gpt-4o-mini" }, { model: "demo/demo/chat" }], retry: { max_attempts: 2 } });
  await api("POST", "/api/policies", {
    name: "Organization defaults",
    scope: "organization",
    scope_id: organizationId,
    deny: ["*/openai/gpt-4o"],
    guardrails: {
      rules: [
        { type: "secrets", action: "block" },
        { type: "pii", name: "pii-redact", action: "redact", detectors: ["email", "payment_card"] },
        { type: "blocked_terms", action: "flag", terms: ["project falcon"] },
        { type: "max_input_characters", limit: 200000 },
      ],
    },
  });
  await api("POST", "/api/budgets", { name: "Monthly cap", scope: "organization", scope_id: organizationId, amount_micros: 5_000_000, period: "month", mode: "soft" });
  await api("POST", "/api/budgets", { name: "Checkout daily", scope: "project", scope_id: checkout.id, amount_micros: 250_000, period: "day", mode: "hard" });
  await api("POST", "/api/budgets", { name: "Platform team", scope: "team", scope_id: platform.id, amount_micros: 1_000_000, period: "week", mode: "soft" });
  await api("POST", "/api/rate-limits", { scope: "project", scope_id: checkout.id, window_seconds: 60, requests_per_window: 600, concurrency: 20 });
  await api("POST", "/api/rate-limits", { scope: "key", scope_id: keys.support.id, window_seconds: 3600, tokens_per_window: 100_000 });
  await api("POST", "/api/invitations", { email: "grace@example.com", role: "member", project_ids: [checkout.id] });
  await api("POST", "/api/invitations", { email: "linus@example.com", role: "viewer" });
  await api("POST", "/api/telemetry-destinations", { name: "Collector", config: { kind: "otlp_http", endpoint: "http://127.0.0.1:4318/v1/traces" } });
  await api("POST", "/api/notification-channels", { name: "Ops Slack", events: ["budget.threshold", "budget.exceeded"], config: { kind: "slack", webhook_url: "https://hooks.slack.com/services/T000/B000/XXXXXXXX" } });
  await api("POST", "/api/mcp/servers", { name: "tickets", url: "https://mcp.example.com/mcp" });

  // Real calls through the gateway, with client labels.
  const callers = [
    { key: keys.checkout.secret, client: "checkout-service/2.3.1" },
    { key: keys.support.secret, client: "support-bot/1.4.0" },
    { key: keys.ci.secret, client: "curl/8.5.0" },
  ];
  for (let round = 0; round < 6; round += 1) {
    for (const caller of callers) {
      await fetch(`${gatewayUrl}/v1/chat/completions`, {
        method: "POST",
        headers: { authorization: `Bearer ${caller.key}`, "content-type": "application/json", "x-gateway-client": caller.client },
        body: JSON.stringify({ model: round % 3 === 2 ? "fast" : "demo/demo/chat", messages: [{ role: "user", content: `Summarise order ${1000 + round}` }] }),
      });
    }
  }
  await fetch(`${gatewayUrl}/v1/chat/completions`, { method: "POST", headers: { authorization: `Bearer ${keys.ci.secret}`, "content-type": "application/json" }, body: JSON.stringify({ model: "demo/demo/missing", messages: [{ role: "user", content: "hi" }] }) });

  // A week of synthetic history (the charts need more than the last minute).
  database = createDatabase({ url: `file:${path.join(directory, "data", "gateway.db")}` });
  const now = Date.now();
  const models = [
    { provider: "demo", model: "demo/chat", input: 0.15, output: 0.6 },
    { provider: "openai", model: "openai/gpt-4o-mini", input: 0.15, output: 0.6 },
    { provider: "demo", model: "demo/decide", input: 0.15, output: 0.6 },
  ];
  const history = [];
  let seed = 7;
  const random = () => ((seed = (seed * 16807) % 2147483647) / 2147483647);
  for (let hour = 7 * 24; hour >= 1; hour -= 1) {
    const daytime = Math.sin(((now / 3_600_000 - hour) % 24) / 24 * Math.PI * 2 - Math.PI / 2) + 1.2;
    const calls = Math.round(daytime * 3 * random());
    for (let call = 0; call < calls; call += 1) {
      const caller = [keys.checkout, keys.support, keys.ci][Math.floor(random() * 3)];
      const label = callers.find((entry) => entry.key === caller.secret).client;
      const chosen = models[Math.floor(random() * models.length)];
      const inputTokens = 200 + Math.floor(random() * 1800);
      const outputTokens = 50 + Math.floor(random() * 600);
      const failed = random() < 0.04;
      const latency = Math.round(250 + random() * 900 + (random() < 0.1 ? 2500 : 0));
      history.push({
        requestId: `req_history_${hour}_${call}`,
        traceId: null,
        occurredAt: new Date(now - hour * 3_600_000 + Math.floor(random() * 3_600_000)),
        organizationId,
        projectId: caller.project_id,
        apiKeyId: caller.id,
        userId: null,
        endpoint: chosen.model === "demo/decide" ? "decisions" : "chat_completions",
        requestedModel: `${chosen.provider}/${chosen.model}`,
        routeId: null,
        provider: chosen.provider,
        model: chosen.model,
        status: failed ? 502 : 200,
        errorCode: failed ? "upstream_error" : null,
        inputTokens: failed ? 0 : inputTokens,
        outputTokens: failed ? 0 : outputTokens,
        cacheReadTokens: 0,
        cacheWriteTokens: 0,
        reasoningTokens: 0,
        costMicros: failed ? 0 : Math.ceil(inputTokens * chosen.input + outputTokens * chosen.output),
        budgetOutcome: null,
        latencyMs: latency,
        timeToFirstByteMs: Math.round(latency * 0.3),
        clientLabel: label.split("/")[0],
        clientVersion: label.split("/")[1] ?? null,
        sessionId: caller === keys.support ? `conv-${Math.floor(hour / 6)}` : null,
        metadata: caller === keys.checkout ? { customer: random() < 0.5 ? "acme" : "globex" } : {},
        attempts: [{ connectionId: null, provider: chosen.provider, model: chosen.model, status: failed ? 502 : 200, latencyMs: latency - 20, errorCode: failed ? "upstream_error" : null, outcome: failed ? "failed" : "served", reason: failed ? "upstream_5xx" : null }],
        guardrailFlags: [],
        content: null,
      });
    }
  }
  // A call of the support bot retried on one provider, then served by the route's fallback, with its content captured.
  history.push({
    requestId: "req_8f3c2a1d9e7b4c6a0f5e2d1c",
    traceId: null,
    occurredAt: new Date(now - 90_000),
    organizationId,
    projectId: keys.support.project_id,
    apiKeyId: keys.support.id,
    teamId: platform.id,
    userId: null,
    endpoint: "chat_completions",
    requestedModel: "fast",
    routeId: null,
    provider: "demo",
    model: "demo/chat",
    connectionId: demo.id,
    status: 200,
    errorCode: null,
    inputTokens: 412,
    outputTokens: 96,
    cacheReadTokens: 128,
    cacheWriteTokens: 0,
    reasoningTokens: 0,
    costMicros: 120,
    budgetOutcome: "reserved",
    latencyMs: 3_140,
    timeToFirstByteMs: 2_980,
    gatewayOverheadMs: 3,
    clientLabel: "support-bot",
    clientVersion: "1.4.0",
    sessionId: "conv-0",
    metadata: { customer: "acme", ticket: "T-1042" },
    attempts: [
      { connectionId: null, provider: "openai", model: "openai/gpt-4o-mini", status: 503, latencyMs: 820, errorCode: "upstream_error", outcome: "retried", reason: "upstream_5xx" },
      { connectionId: null, provider: "openai", model: "openai/gpt-4o-mini", status: null, latencyMs: 2_000, errorCode: "timeout", outcome: "fell_back", reason: "timeout" },
      { connectionId: demo.id, provider: "demo", model: "demo/chat", status: 200, latencyMs: 310, errorCode: null, outcome: "served", reason: null },
    ],
    guardrailFlags: ["pii-redact"],
    content: {
      request: { model: "fast", messages: [{ role: "user", content: "Summarise order 1042 for [REDACTED:email]." }] },
      response: { choices: [{ message: { role: "assistant", content: "Order 1042: two items, paid, ships tomorrow." }, finish_reason: "stop" }] },
    },
    contentCapture: { maxBytes: 65_536, retentionDays: 7 },
  });
  const secretBox = loadSecretBoxFromEnvironment({ env: {}, dataDirectory: path.join(directory, "data"), generateWhenMissing: false });
  await writeUsageBatch(database, history, { secretBox });

  browser = await chromium.launch({
    executablePath: chromiumPath,
    headless: true,
    args: ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync", "--hide-scrollbars"],
  });
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, deviceScaleFactor: 1 });
  const page = await context.newPage();
  mkdirSync(outputDirectory, { recursive: true });
  const shoot = async (name, options = {}) => {
    await page.waitForLoadState("networkidle");
    await page.waitForTimeout(300);
    await page.screenshot({ path: path.join(outputDirectory, `${name}.png`), fullPage: options.fullPage ?? false });
    console.log(`docs/screenshots/${name}.png`);
  };
  const open = async (route, heading) => {
    await page.goto(`${dashboardUrl}${route}`);
    await page.getByRole("heading", { level: 1, name: heading }).waitFor();
  };

  await page.goto(`${dashboardUrl}/login`);
  await page.getByLabel("Email").fill("admin@gateway.local");
  await shoot("login");
  await page.getByLabel("Password").fill(password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await page.getByRole("heading", { level: 1, name: /Welcome/ }).waitFor();
  await shoot("overview");

  await open("/usage", "Usage");
  await page.getByLabel("Range").selectOption("7d");
  await page.getByLabel("Show").selectOption("costMicros");
  await page.getByLabel("By", { exact: true }).selectOption("model");
  await page.setViewportSize({ width: 1280, height: 1100 });
  await shoot("usage");
  await page.setViewportSize({ width: 1280, height: 800 });

  await open(`/activity?from=${encodeURIComponent(new Date(now - 86_400_000).toISOString())}`, "Activity");
  await page.getByRole("search", { name: "Add a filter" }).getByLabel("Add a filter").selectOption({ label: "API key" });
  await page.getByRole("search", { name: "Add a filter" }).getByLabel("API key").selectOption({ label: "support-prod" });
  await page.getByRole("button", { name: "Add filter" }).click();
  await page.getByRole("button", { name: "Open call req_8f3c2a1d9e7b4c6a0f5e2d1c" }).waitFor();
  await shoot("activity");
  await page.getByRole("button", { name: "Open call req_8f3c2a1d9e7b4c6a0f5e2d1c" }).click();
  await page.getByRole("dialog", { name: "Call details" }).getByRole("button", { name: "Show the request and response" }).click();
  await page.getByTestId("activity-content").waitFor();
  // The drawer from its top: the attempts first.
  await page.locator("dialog.drawer .dialog-body").evaluate((body) => body.scrollTo(0, 0));
  await shoot("activity-call");
  await page.keyboard.press("Escape");

  await open("/api-keys", "API keys");
  await page.getByRole("button", { name: "Create API key" }).click();
  await page.getByRole("dialog", { name: "Create API key" }).getByLabel("Name").fill("analytics-batch");
  await page.getByRole("dialog", { name: "Create API key" }).getByRole("button", { name: "Create key" }).click();
  await page.getByRole("dialog", { name: "Your new API key" }).waitFor();
  await shoot("api-key-created");
  await page.getByRole("button", { name: "Done" }).click();
  await shoot("api-keys");

  await open("/connections", "Connections");
  await page.getByRole("button", { name: "Test demo" }).click();
  await page.getByText("test passed").waitFor();
  await shoot("connections");

  await open("/budgets", "Budgets");
  await shoot("budgets");
  await open("/guardrails", "Guardrails");
  await shoot("guardrails");
  await open("/members", "Members");
  await shoot("members");

  await open("/playground", "Playground");
  await page.getByRole("button", { name: "Send" }).and(page.locator(":enabled")).waitFor().catch(() => undefined);
  await page.getByLabel("Message").fill("Draft a two-line apology for a late delivery.");
  await page.getByLabel("Message").press("Control+Enter");
  await page.getByTestId("call-facts").waitFor();
  await shoot("playground");

  await page.setViewportSize({ width: 390, height: 844 });
  await open("/budgets", "Budgets");
  await shoot("budgets-narrow", { fullPage: true });
} finally {
  await browser?.close();
  await database?.close();
  if (child.exitCode === null) {
    const exited = new Promise((resolve) => child.once("exit", resolve));
    child.kill("SIGTERM");
    await exited;
  }
  rmSync(directory, { recursive: true, force: true });
}

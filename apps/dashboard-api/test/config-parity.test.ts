import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startDashboard } from "../src/start-dashboard.js";
import { startLocalHttpServer } from "./support/local-http-server.js";
import { startTestDashboard, type TestDashboard } from "./support/test-dashboard.js";

describe("the dashboard's data directory", () => {
  it("opens the embedded SQLite database and the secret key under GATEWAY_DATA_DIR, as the gateway does", async () => {
    const directory = mkdtempSync(path.join(tmpdir(), "dashboard-data-"));
    const working = mkdtempSync(path.join(tmpdir(), "dashboard-cwd-"));
    const previous = process.cwd();
    process.chdir(working);
    try {
      const dashboard = await startDashboard({
        environment: { GATEWAY_DATA_DIR: directory, DASHBOARD_PORT: "0", DASHBOARD_LOG_LEVEL: "silent" },
      });
      await dashboard.close();
      expect(existsSync(path.join(directory, "gateway.db"))).toBe(true);
      expect(existsSync(path.join(directory, "secret.key"))).toBe(true);
      // Nothing fell back to ./data of the working directory.
      expect(existsSync(path.join(working, "data"))).toBe(false);
    } finally {
      process.chdir(previous);
      rmSync(directory, { recursive: true, force: true });
      rmSync(working, { recursive: true, force: true });
    }
  });
});

describe("connections and limits: the configuration file's rules", () => {
  let harness: TestDashboard;
  let owner: string;
  let projectId: string;

  beforeAll(async () => {
    harness = await startTestDashboard({ target: "sqlite" });
    const organizationId = (await harness.createOrganization()).id;
    const member = await harness.createMember({ organizationId, role: "owner" });
    owner = await harness.login(member.email, member.password);
    projectId = (await harness.request("POST", "/api/projects", { cookie: owner, body: { name: "Main" } })).body.id;
  });
  afterAll(async () => harness.close());

  const call = (method: string, urlPath: string, body?: unknown) => harness.request(method, urlPath, { cookie: owner, body });

  it.each([
    ["openai", "", "/v1/models"],
    ["openai", "/v1/", "/v1/models"],
    ["anthropic", "", "/v1/models"],
    ["anthropic", "/v1", "/v1/models"],
  ])("tests a %s connection whose base URL ends in '%s' at %s (with or without /v1)", async (kind, suffix, expectedPath) => {
    const upstream = await startLocalHttpServer();
    try {
      const created = await call("POST", "/api/connections", { name: `${kind}-${suffix.replace(/\W/g, "") || "root"}`, kind, base_url: `${upstream.url}${suffix}`, credential: "sk-test" });
      expect(created.status, created.text).toBe(201);
      const tested = await call("POST", `/api/connections/${created.body.id}/test`);
      expect(tested.body).toMatchObject({ ok: true, status_code: 200 });
      expect(upstream.received.map((request) => request.path)).toEqual([expectedPath]);
    } finally {
      await upstream.close();
    }
  });

  it("refuses the limits the configuration file refuses (shared bounds), naming the field", async () => {
    const tooManyTokens = await call("POST", "/api/rate-limits", { scope: "project", scope_id: projectId, tokens_per_window: 1_000_000_000_000 });
    expect(tooManyTokens.status).toBe(400);
    expect(tooManyTokens.body.error.details.param).toBe("tokens_per_window");
    // The file allows up to 10 attempts per target; the dashboard used to stop at 5.
    await call("POST", "/api/connections", { name: "demo", kind: "demo", models: ["demo/echo"] });
    const route = await call("POST", "/api/routes", { alias: "retrying", targets: [{ model: "demo/demo/echo" }], retry: { max_attempts: 10 } });
    expect(route.status, route.text).toBe(201);
    const price = await call("POST", "/api/connections", { name: "priced", kind: "demo", models: ["demo/x"], prices: { "demo/x": { input: 1e12, output: 1 } } });
    expect(price.status).toBe(400);
    expect(price.body.error.details.param).toBe("prices.demo/x.input");
  });
});

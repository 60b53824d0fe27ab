import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import { connect } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createDashboardServer } from "../src/http/create-dashboard-server.js";
import { databaseTargets } from "./support/test-database.js";
import { dashboardOrigin, startTestDashboard, type TestDashboard } from "./support/test-dashboard.js";

/** Posts raw body bytes and reads the answer. */
async function postRaw(url: string, body: string | Buffer, headers: Record<string, string> = {}) {
  const response = await fetch(url, { method: "POST", headers: { "content-type": "application/json", origin: dashboardOrigin, ...headers }, body });
  const text = await response.text();
  let parsed: any = null;
  try {
    parsed = JSON.parse(text);
  } catch {
    parsed = null;
  }
  return { status: response.status, requestId: response.headers.get("x-request-id"), body: parsed, text };
}

/** Sends raw bytes on a new connection and reads everything until the server closes it (or `waitMs` passes). */
function rawExchange(url: string, bytes: string, waitMs = 3000): Promise<{ status: number; headers: Record<string, string>; body: any }> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname, () => socket.write(bytes));
    const parts: Buffer[] = [];
    const timer = setTimeout(() => socket.destroy(), waitMs);
    socket.on("data", (part: Buffer) => parts.push(part));
    socket.on("error", () => undefined);
    socket.on("close", () => {
      clearTimeout(timer);
      const text = Buffer.concat(parts).toString("utf8");
      const split = text.indexOf("\r\n\r\n");
      if (split === -1) {
        reject(new Error(`no HTTP answer: ${JSON.stringify(text)}`));
        return;
      }
      const [statusLine, ...headerLines] = text.slice(0, split).split("\r\n");
      const headers = Object.fromEntries(headerLines.map((line) => [line.slice(0, line.indexOf(":")).toLowerCase(), line.slice(line.indexOf(":") + 1).trim()]));
      const payload = text.slice(split + 4);
      try {
        resolve({ status: Number(statusLine!.split(" ")[1]), headers, body: payload === "" ? null : JSON.parse(payload) });
      } catch {
        reject(new Error(`not one JSON answer: ${JSON.stringify(text)}`));
      }
    });
  });
}

describe.each(databaseTargets)("hostile request bodies (%s)", (target) => {
  let harness: TestDashboard;
  let owner: string;

  beforeAll(async () => {
    harness = await startTestDashboard({ target });
    const organizationId = (await harness.createOrganization()).id;
    const member = await harness.createMember({ organizationId, role: "owner" });
    owner = await harness.login(member.email, member.password);
  });
  afterAll(async () => harness?.close());

  it("answers 1 MB of nesting to POST /v1/auth/login with 400 invalid_request in the dashboard body", async () => {
    const depth = 500_000;
    const answer = await postRaw(`${harness.url}/v1/auth/login`, "[".repeat(depth) + "]".repeat(depth));
    expect(answer.status, answer.text).toBe(400);
    expect(answer.body).toEqual({ error: { code: "invalid_request", message: expect.stringContaining("nested too deeply"), details: { max_depth: 128 } } });
    expect(answer.requestId).toMatch(/^req_/);
  });

  it("answers an unpaired surrogate in the login email with 400, before the database sees it", async () => {
    const answer = await postRaw(`${harness.url}/v1/auth/login`, '{"email":"\\ud800@x.com","password":"correct horse battery"}');
    expect(answer.status, answer.text).toBe(400);
    expect(answer.body.error.code).toBe("invalid_request");
    expect(answer.body.error.message).toContain("unpaired UTF-16 surrogate");
    const inKey = await postRaw(`${harness.url}/api/projects`, '{"name":"ok","\\udfff":1}', { cookie: owner });
    expect(inKey.status, inKey.text).toBe(400);
  });

  it("answers nesting of 10,000 inside a forwarded field (policy guardrails) with 400, never a 500", async () => {
    const deep = "[".repeat(10_000) + "]".repeat(10_000);
    const answer = await postRaw(`${harness.url}/api/policies`, `{"scope":"organization","scope_id":"org_x","guardrails":{"rules":${deep}}}`, { cookie: owner });
    expect(answer.status, answer.text).toBe(400);
    expect(answer.body.error.code).toBe("invalid_request");
  });

  it("keeps the body rules of express.json: {} for an empty body, 400 for a bare value, 415 for another charset", async () => {
    const empty = await postRaw(`${harness.url}/api/projects`, "", { cookie: owner });
    expect(empty.status).toBe(400);
    expect(empty.body.error.details.param).toBe("name");
    const bare = await postRaw(`${harness.url}/api/projects`, '"Main"', { cookie: owner });
    expect(bare.status).toBe(400);
    expect(bare.body.error.message).toBe("The request body must be a JSON object or array.");
    const latin1 = await postRaw(`${harness.url}/api/projects`, '{"name":"x"}', { cookie: owner, "content-type": "application/json; charset=latin1" });
    expect(latin1.status).toBe(415);
    expect(latin1.body.error.code).toBe("unsupported_media_type");
    const large = await postRaw(`${harness.url}/api/projects`, JSON.stringify({ name: "x", description: "y".repeat(1_100_000) }), { cookie: owner });
    expect(large.status).toBe(413);
    expect(large.body.error.code).toBe("request_too_large");
    const created = await postRaw(`${harness.url}/api/projects`, JSON.stringify({ name: "Parsed as before" }), { cookie: owner });
    expect(created.status, created.text).toBe(201);
    expect(created.body.name).toBe("Parsed as before");
  });

  it.each(["/api/projects/%ZZ", "/api/projects/%E0%A4%A"])("answers an undecodable path parameter (%s) with 400, not a 500", async (path) => {
    const answer = await harness.request("GET", path, { cookie: owner });
    expect(answer.status, answer.text).toBe(400);
    expect(answer.body.error.code).toBe("invalid_request");
    expect(answer.headers.get("x-request-id")).toMatch(/^req_/);
  });

  it.each([
    ["/api/mcp/servers", { name: "tickets", url: "not a url", auth_kind: "none" }, "url"],
    ["/api/telemetry-destinations", { name: "collector", config: { kind: "webhook", url: "not a url", secret: "s".repeat(20) } }, "config.url"],
    ["/api/telemetry-destinations", { name: "otlp", config: { kind: "otlp_http", endpoint: "http://[" } }, "config.endpoint"],
    ["/api/notification-channels", { name: "hook", events: [], config: { kind: "webhook", url: "::", secret: "s".repeat(20) } }, "config.url"],
  ])("answers POST %s with an invalid URL with 400 naming the field", async (path, body, param) => {
    const answer = await harness.request("POST", path, { cookie: owner, body });
    expect(answer.status, answer.text).toBe(400);
    expect(answer.body.error.code).toBe("invalid_request");
    expect(answer.body.error.details.param).toBe(param);
  });
});

describe("requests refused by the HTTP parser (dashboard)", () => {
  let harness: TestDashboard;
  let impatient: Server;
  let impatientUrl: string;

  beforeAll(async () => {
    harness = await startTestDashboard();
    impatient = createDashboardServer(harness.dashboard.app, { requestTimeoutMs: 400 });
    await new Promise<void>((resolve) => impatient.listen(0, "127.0.0.1", () => resolve()));
    impatientUrl = `http://127.0.0.1:${(impatient.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    impatient?.closeAllConnections();
    await new Promise<void>((resolve) => impatient?.close(() => resolve()));
    await harness?.close();
  });

  const expectErrorAnswer = (answer: Awaited<ReturnType<typeof rawExchange>>, status: number, code: string) => {
    expect(answer.status).toBe(status);
    expect(answer.headers["content-type"]).toBe("application/json; charset=utf-8");
    expect(answer.headers.connection).toBe("close");
    expect(answer.headers["x-request-id"]).toMatch(/^req_[0-9a-f]{24}$/);
    expect(answer.body).toEqual({ error: { code, message: expect.any(String), details: expect.any(Object) } });
  };

  it("answers bad chunking with 400", async () => {
    const answer = await rawExchange(
      harness.url,
      "POST /v1/auth/login HTTP/1.1\r\nHost: dashboard\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n{}\r\n0\r\n\r\n",
    );
    expectErrorAnswer(answer, 400, "invalid_request");
  });

  it("answers a 20 KB header with 431", async () => {
    const answer = await rawExchange(harness.url, `GET /healthz HTTP/1.1\r\nHost: dashboard\r\nCookie: ${"a".repeat(20_000)}\r\n\r\n`);
    expectErrorAnswer(answer, 431, "request_headers_too_large");
  });

  it("answers bare LF line endings with 400", async () => {
    const answer = await rawExchange(harness.url, "GET /healthz HTTP/1.1\nHost: dashboard\n\n");
    expectErrorAnswer(answer, 400, "invalid_request");
  });

  it("answers an HTTP/1.1 request without Host with 400", async () => {
    const answer = await rawExchange(harness.url, "GET /healthz HTTP/1.1\r\n\r\n");
    expectErrorAnswer(answer, 400, "invalid_request");
    expect(answer.body.error.details.param).toBe("host");
  });

  it("answers CONNECT with 404 in the dashboard error body", async () => {
    const answer = await rawExchange(harness.url, "CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n\r\n");
    expectErrorAnswer(answer, 404, "not_found");
  });

  it("serves a request with an unknown Expect as if it were absent", async () => {
    const answer = await rawExchange(harness.url, "GET /healthz HTTP/1.1\r\nHost: dashboard\r\nExpect: something\r\nConnection: close\r\n\r\n");
    expect(answer.status).toBe(200);
    expect(answer.headers["x-request-id"]).toMatch(/^req_/);
    expect(answer.body).toEqual({ status: "ok" });
  });

  it("answers a stalled body with 408 request_timeout at the server's request timeout", async () => {
    const answer = await rawExchange(impatientUrl, 'POST /v1/auth/login HTTP/1.1\r\nHost: dashboard\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"email":');
    expectErrorAnswer(answer, 408, "request_timeout");
  });

  it("answers stalled headers with 408", async () => {
    const answer = await rawExchange(impatientUrl, "GET /healthz HTTP/1.1\r\nHost: dashboard\r\n");
    expectErrorAnswer(answer, 408, "request_timeout");
  });
});

import { createServer } from "node:net";
import type { AddressInfo, LookupFunction } from "node:net";
import { createOutboundFetch } from "@gateway/provider-adapters";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { z } from "zod";
import { checkOutboundUrlIssue } from "../src/resources/outbound-url-check.js";
import { startTestDashboard, type TestDashboard } from "./support/test-dashboard.js";

const secret = "whsec_0123456789abcdef";
const credential = "sk-outbound-policy-test-credential";

/** Resolves `model.test` to 127.0.0.1 (no DNS). */
const lookup = ((hostname: string, options: { all?: boolean }, callback: (...args: unknown[]) => void) => {
  if (hostname !== "model.test") callback(Object.assign(new Error("not found"), { code: "ENOTFOUND" }));
  else if (options.all) callback(null, [{ address: "127.0.0.1", family: 4 }]);
  else callback(null, "127.0.0.1", 4);
}) as unknown as LookupFunction;

// The refused URLs of these requests are loopback ones under GATEWAY_OUTBOUND_PRIVATE_ADDRESSES=deny:
// no link-local, private or public address is ever sent, even to be refused (those are covered
// by the pure checks below and in @gateway/provider-adapters).
describe("the dashboard under the outbound address policy", () => {
  let harness: TestDashboard;
  let cookie: string;
  let connections = 0;
  let port = 0;
  const listener = createServer((socket) => {
    connections += 1;
    socket.destroy();
  });

  beforeAll(async () => {
    await new Promise<void>((resolve) => listener.listen(0, "127.0.0.1", resolve));
    port = (listener.address() as AddressInfo).port;
    harness = await startTestDashboard({ dependencies: { outboundFetch: createOutboundFetch({ policy: { privateAddresses: "deny" }, lookup }) } });
    const organizationId = (await harness.createOrganization()).id;
    const owner = await harness.createMember({ organizationId, role: "owner" });
    cookie = await harness.login(owner.email, owner.password);
  });
  afterAll(async () => {
    await harness.close();
    await new Promise<void>((resolve) => listener.close(() => resolve()));
  });
  afterEach(() => {
    vi.unstubAllEnvs();
  });

  const call = (method: string, path: string, body?: unknown) => harness.request(method, path, { cookie, body });
  const denied = "loopback and private addresses are refused (GATEWAY_OUTBOUND_PRIVATE_ADDRESSES=deny)";

  it.each([
    ["/api/connections", { name: "internal", kind: "openai", base_url: "http://127.0.0.2:9/v1", credential }, "base_url", "127.0.0.2 is a loopback address"],
    ["/api/mcp/servers", { name: "tickets", url: "http://localhost:9/mcp", auth_kind: "none" }, "url", "localhost is a loopback address"],
    ["/api/telemetry-destinations", { name: "otlp", config: { kind: "otlp_http", endpoint: "http://[::1]:9/v1/traces" } }, "config.endpoint", "::1 is a loopback address"],
    ["/api/notification-channels", { name: "hook", config: { kind: "webhook", url: "http://127.0.0.1:9/hook", secret } }, "config.url", "127.0.0.1 is a loopback address"],
  ])("POST %s refuses a URL the policy refuses with 400 naming the rule", async (path, body, param, named) => {
    vi.stubEnv("GATEWAY_OUTBOUND_PRIVATE_ADDRESSES", "deny");
    const response = await call("POST", path, body);
    expect(response.status, response.text).toBe(400);
    expect(response.body.error).toMatchObject({ code: "invalid_request", details: { param } });
    expect(response.body.error.message).toContain(`outbound address refused: ${named}; ${denied}.`);
    expect(response.text).not.toContain(credential);
  });

  it("accepts the same loopback URL under the default policy (allow)", async () => {
    const response = await call("POST", "/api/connections", { name: "local", kind: "openai", base_url: "http://127.0.0.2:9/v1", credential });
    expect(response.status, response.text).toBe(201);
  });

  it("a connection test whose host resolves to a refused address fails without connecting or sending the credential", async () => {
    const created = await call("POST", "/api/connections", { name: "resolved", kind: "openai", base_url: `http://model.test:${port}/v1`, credential });
    expect(created.status, created.text).toBe(201);
    const tested = await call("POST", `/api/connections/${created.body.id}/test`);
    expect(tested.status, tested.text).toBe(200);
    expect(tested.body).toMatchObject({
      ok: false,
      status_code: null,
      message: `Refused by the outbound address policy: model.test resolves to 127.0.0.1 is a loopback address; ${denied}.`,
    });
    expect(connections).toBe(0);
  });
});

// Pure: the refinement is applied to address text; nothing is sent.
describe("checkOutboundUrlIssue", () => {
  const schema = z.string().superRefine(checkOutboundUrlIssue);
  it.each(["http://169.254.169.254/latest/meta-data/", "http://2852039166/", "http://0xA9FEA9FE/", "https://[fd00:ec2::254]/", "http://metadata.google.internal/"])(
    "refuses %s under every policy, naming the rule",
    (url) => {
      const result = schema.safeParse(url);
      expect(result.success).toBe(false);
      expect(result.error?.issues[0]?.message).toMatch(/^outbound address refused: .* is a (cloud metadata|link-local) address; link-local and cloud metadata addresses are never allowed\.$/);
    },
  );
  it("lets host names and allowed addresses through (names are checked when a connection opens)", () => {
    expect(schema.safeParse("https://api.example.com/v1").success).toBe(true);
    expect(schema.safeParse("http://127.0.0.1:8080/v1").success).toBe(true);
  });
});

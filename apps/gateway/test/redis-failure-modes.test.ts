import { createServer } from "node:http";
import type { ControlPlaneSnapshot } from "@gateway/contracts";
import type { AddressInfo } from "node:net";

import { afterEach, describe, expect, it } from "vitest";
import { createGatewayRuntime } from "../src/create-gateway-runtime.js";
import { readGatewaySettings } from "../src/gateway-settings.js";
import { createGatewayTestSnapshot, testApiKey } from "./support/create-gateway-test-snapshot.js";
import { decisionBody, postDecision } from "./support/post-decision.js";

/** Nothing listens there: every Redis command fails at once. */
const unreachableRedis = "redis://127.0.0.1:1";
const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  await Promise.all(closers.splice(0).map((close) => close()));
});

async function startWithRedisDown(snapshot: ControlPlaneSnapshot, failureModes: { budgets?: "closed" | "open"; rateLimits?: "open" | "closed" }) {
  const runtime = await createGatewayRuntime({
    source: { load: async () => snapshot, readVersion: async () => snapshot.version },
    sink: { write: async () => undefined },
    settings: {
      bodyLimitBytes: 1_000_000,
      requestTimeoutMs: 10_000,
      upstreamTimeoutMs: 5_000,
      upstreamConnectTimeoutMs: 1_000,
      snapshotPollMs: 60_000,
      usageBatchSize: 100,
      usageFlushMs: 10,
      redisUrl: unreachableRedis,
      redisKeyPrefix: "test:down:",
      ...(failureModes.budgets ? { redisFailureModeBudgets: failureModes.budgets } : {}),
      ...(failureModes.rateLimits ? { redisFailureModeRateLimits: failureModes.rateLimits } : {}),
    },
  });
  const server = createServer(runtime.handler).listen(0, "127.0.0.1");
  await new Promise<void>((resolve) => server.once("listening", () => resolve()));
  closers.push(async () => {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
    await runtime.close({ timeoutMs: 1000 });
  });
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

const limited = createGatewayTestSnapshot(
  {},
  {
    rateLimits: [{ id: "lim_1", organizationId: "org_1", scope: "key", scopeId: "key_main", windowSeconds: 60, requestsPerWindow: 100, tokensPerWindow: null, concurrency: null }],
  },
);

describe("Redis down", () => {
  it("rate limits fail open by default: calls pass", async () => {
    const url = await startWithRedisDown(limited, {});
    const response = await postDecision(url, { apiKey: testApiKey, body: decisionBody("demo/demo/decider") });
    expect(response.status).toBe(200);
  });

  it("GATEWAY_REDIS_FAILURE_MODE_RATE_LIMITS=closed refuses with 503 and Retry-After", async () => {
    const url = await startWithRedisDown(limited, { rateLimits: "closed" });
    const response = await postDecision(url, { apiKey: testApiKey, body: decisionBody("demo/demo/decider") });
    expect(response.status).toBe(503);
    expect(response.body.error.code).toBe("service_unavailable");
    expect(response.headers.get("retry-after")).toBe("1");
  });
});

describe("Redis settings", () => {
  it("defaults: budgets fail closed, rate limits open, key prefix gateway:", () => {
    expect(readGatewaySettings({})).toMatchObject({
      redisKeyPrefix: "gateway:",
      redisFailureModeBudgets: "closed",
      redisFailureModeRateLimits: "open",
      deliveryFlushMs: 1000,
      deliveryQueueSize: 10_000,
    });
  });

  it("reads the documented variables and names an invalid one", () => {
    expect(
      readGatewaySettings({ GATEWAY_REDIS_KEY_PREFIX: "{gw}:", GATEWAY_REDIS_FAILURE_MODE_BUDGETS: "open", GATEWAY_REDIS_FAILURE_MODE_RATE_LIMITS: "closed" }),
    ).toMatchObject({ redisKeyPrefix: "{gw}:", redisFailureModeBudgets: "open", redisFailureModeRateLimits: "closed" });
    expect(() => readGatewaySettings({ GATEWAY_REDIS_FAILURE_MODE_BUDGETS: "sometimes" })).toThrow(/GATEWAY_REDIS_FAILURE_MODE_BUDGETS/);
  });
});

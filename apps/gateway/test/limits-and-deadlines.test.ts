import { request as httpRequest } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createGatewayTestSnapshot, testApiKey } from "./support/create-gateway-test-snapshot.js";
import { type MockProvider, startMockProvider, systemOneHandler } from "./support/mock-provider.js";
import { decisionBody, postDecision } from "./support/post-decision.js";
import { type TestGateway, startTestGateway } from "./support/start-test-gateway.js";

let native: MockProvider;
let small: TestGateway;
let impatient: TestGateway;
let slowUpstream: TestGateway;

beforeAll(async () => {
  native = await startMockProvider(systemOneHandler());
  const snapshot = createGatewayTestSnapshot({ systemone: native.baseUrl });
  [small, impatient, slowUpstream] = await Promise.all([
    startTestGateway(snapshot, { bodyLimitBytes: 2048 }),
    startTestGateway(snapshot, { requestTimeoutMs: 300, upstreamTimeoutMs: 10_000 }),
    startTestGateway(snapshot, { requestTimeoutMs: 10_000, upstreamTimeoutMs: 300 }),
  ]);
});

afterAll(async () => {
  await Promise.all([small?.close(), impatient?.close(), slowUpstream?.close()]);
  await native?.close();
});

/** Sends a raw request (chunked when `chunks` is given) and reads status, headers and body. */
function rawPost(
  url: string,
  options: { headers: Record<string, string>; chunks: string[] },
): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: any }> {
  return new Promise((resolve, reject) => {
    const request = httpRequest(`${url}/v1/systemone`, { method: "POST", headers: options.headers }, (response) => {
      const parts: Buffer[] = [];
      response.on("data", (part: Buffer) => parts.push(part));
      response.on("end", () =>
        resolve({ status: response.statusCode ?? 0, headers: response.headers, body: JSON.parse(Buffer.concat(parts).toString("utf8")) }),
      );
    });
    request.on("error", reject);
    for (const chunk of options.chunks) request.write(chunk);
    request.end();
  });
}

describe("body limit", () => {
  it("answers 413 from Content-Length alone, before reading the body", async () => {
    const body = JSON.stringify(decisionBody("demo/demo/decider", { padding: "x".repeat(4000) }));
    const response = await postDecision(small.url, { apiKey: testApiKey, body });
    expect(response.status).toBe(413);
    expect(response.body.error.code).toBe("request_too_large");
    expect(response.requestId).toMatch(/^req_/);
  });

  it("answers 413 while reading a chunked body that passes the limit", async () => {
    const response = await rawPost(small.url, {
      headers: { authorization: `Bearer ${testApiKey}`, "content-type": "application/json", "transfer-encoding": "chunked" },
      chunks: ['{"model":"demo/demo/decider","padding":"', "y".repeat(1500), "z".repeat(1500), '"}'],
    });
    expect(response.status).toBe(413);
    expect(response.body.error.code).toBe("request_too_large");
    expect(response.headers["x-request-id"]).toMatch(/^req_/);
  });

  it("accepts a body under the limit", async () => {
    const response = await postDecision(small.url, { apiKey: testApiKey, body: decisionBody("demo/demo/decider") });
    expect(response.status).toBe(200);
  });
});

describe("deadlines", () => {
  it("answers 408 request_timeout when the gateway's deadline passes", async () => {
    native.override(() => ({ delayMs: 2000, body: { answers: {} } }));
    try {
      const response = await postDecision(impatient.url, { apiKey: testApiKey, body: decisionBody("native/systemone/s1") });
      expect(response.status).toBe(408);
      expect(response.body.error.code).toBe("request_timeout");
      expect(response.requestId).toMatch(/^req_/);
      expect((await impatient.eventFor(response.requestId)).status).toBe(408);
    } finally {
      native.override(null);
    }
  });

  it("answers 504 upstream_timeout when the provider is too slow", async () => {
    native.override(() => ({ delayMs: 2000, body: { answers: {} } }));
    try {
      const response = await postDecision(slowUpstream.url, { apiKey: testApiKey, body: decisionBody("native/systemone/s1") });
      expect(response.status).toBe(504);
      expect(response.body.error.code).toBe("upstream_timeout");
    } finally {
      native.override(null);
    }
  });
});

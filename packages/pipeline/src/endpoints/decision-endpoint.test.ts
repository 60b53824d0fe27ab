import { createAdmissionController, createMemoryStore } from "@gateway/budget";
import { type ProviderAdapter, callAbortFollowing, createDemoAdapter, createHttpTransport } from "@gateway/provider-adapters";
import { afterAll, describe, expect, it, vi } from "vitest";
import { createTestSnapshot, testApiKey } from "../__fixtures__/create-test-snapshot.js";
import { createAdapterRegistry } from "../runtime/adapter-registry.js";
import { compileSnapshot } from "../runtime/compile-snapshot.js";
import type { PipelineDependencies } from "../call/pipeline-dependencies.js";
import { runInferenceCall } from "../call/run-inference-call.js";
import { decisionEndpoint } from "./decision-endpoint.js";
import type { UsageEventRecord } from "@gateway/contracts";

const transport = createHttpTransport();
afterAll(() => transport.close());

function createDependencies(options: { adapter?: ProviderAdapter; requestTimeoutMs?: number } = {}) {
  const events: UsageEventRecord[] = [];
  const snapshot = compileSnapshot(createTestSnapshot());
  const dependencies: PipelineDependencies = {
    snapshots: { current: () => snapshot },
    usage: { enqueue: (event) => void events.push(event) },
    adapters: createAdapterRegistry({ transport, createAdapter: () => options.adapter ?? createDemoAdapter() }),
    admission: createAdmissionController({ store: createMemoryStore() }),
    requestTimeoutMs: options.requestTimeoutMs ?? 10_000,
  };
  return { dependencies, events };
}

const body = {
  model: "demo/demo/decider",
  state: "secret state",
  questions: { ok: { type: "noul", instructions: "Is it fine?" } },
};
const headers = { authorization: `Bearer ${testApiKey}` };

describe("decisions on the call skeleton (no HTTP)", () => {
  it("answers a decision and queues one usage event without the decision content", async () => {
    const { dependencies, events } = createDependencies();
    const response = await runInferenceCall(dependencies, { requestId: "req_a", headers, readBody: async () => body }, decisionEndpoint);
    expect(response.status).toBe(200);
    expect(response.headers["x-request-id"]).toBe("req_a");
    if (response.kind !== "json") throw new Error("expected JSON");
    expect((response.body as { answers: Record<string, unknown> }).answers.ok).toMatchObject({ type: "noul" });
    await vi.waitFor(() => expect(events).toHaveLength(1));
    expect(events[0]).toMatchObject({ requestId: "req_a", status: 200, provider: "demo", apiKeyId: "key_1", content: null });
    expect(JSON.stringify(events[0])).not.toContain("secret state");
  });

  it("authenticates before reading the body", async () => {
    const { dependencies, events } = createDependencies();
    const readBody = vi.fn(async () => body);
    const response = await runInferenceCall(dependencies, { requestId: "req_b", headers: {}, readBody }, decisionEndpoint);
    expect(response.status).toBe(401);
    expect(readBody).not.toHaveBeenCalled();
    await vi.waitFor(() => expect(events[0]).toMatchObject({ status: 401, errorCode: "invalid_gateway_api_key" }));
  });

  it("answers 408 at the gateway deadline and aborts the provider call", async () => {
    let providerSignal: AbortSignal | undefined;
    const hanging: ProviderAdapter = {
      ...createDemoAdapter(),
      decisions: {
        passthrough: ["systemone-decisions"],
        logprobs: false,
        decide: (_request, _target, context) => {
          providerSignal = context.abort.signal;
          return new Promise((_resolve, reject) => context.abort.signal.addEventListener("abort", () => reject(context.abort.signal.reason)));
        },
      },
    };
    const { dependencies, events } = createDependencies({ adapter: hanging, requestTimeoutMs: 50 });
    const response = await runInferenceCall(dependencies, { requestId: "req_c", headers, readBody: async () => body }, decisionEndpoint);
    expect(response).toMatchObject({ kind: "json", status: 408, body: { error: { code: "request_timeout" } } });
    expect(providerSignal?.aborted).toBe(true);
    await vi.waitFor(() => expect(events[0]).toMatchObject({ status: 408, provider: "demo" }));
  });

  it("records a 499 and aborts the provider call when the caller disconnects", async () => {
    const caller = new AbortController();
    let providerSignal: AbortSignal | undefined;
    const hanging: ProviderAdapter = {
      ...createDemoAdapter(),
      decisions: {
        passthrough: ["systemone-decisions"],
        logprobs: false,
        decide: (_request, _target, context) => {
          providerSignal = context.abort.signal;
          setTimeout(() => caller.abort(), 5);
          return new Promise((_resolve, reject) => context.abort.signal.addEventListener("abort", () => reject(context.abort.signal.reason)));
        },
      },
    };
    const { dependencies, events } = createDependencies({ adapter: hanging });
    await runInferenceCall(dependencies, { requestId: "req_d", headers, readBody: async () => body, abort: callAbortFollowing(caller.signal) }, decisionEndpoint);
    expect(providerSignal?.aborted).toBe(true);
    await vi.waitFor(() => expect(events[0]).toMatchObject({ status: 499, errorCode: "client_cancelled" }));
  });
});

import { createAdmissionController, createMemoryStore } from "@gateway/budget";
import type { UsageEventRecord } from "@gateway/contracts";
import { createDemoAdapter, createHttpTransport } from "@gateway/provider-adapters";
import { afterAll, describe, expect, it, vi } from "vitest";
import { createTestSnapshot, testApiKey } from "../__fixtures__/create-test-snapshot.js";
import { decisionEndpoint } from "../endpoints/decision-endpoint.js";
import { createAdapterRegistry } from "../runtime/adapter-registry.js";
import { compileSnapshot } from "../runtime/compile-snapshot.js";
import type { PipelineDependencies } from "./pipeline-dependencies.js";
import { runInferenceCall } from "./run-inference-call.js";

const transport = createHttpTransport();
afterAll(() => transport.close());

describe("usage.record (a durable journal's hook)", () => {
  it("gets the call's usage event before the answer is returned; enqueue then gets that event with the id record gave it", async () => {
    const recorded: UsageEventRecord[] = [];
    const queued: UsageEventRecord[] = [];
    const snapshot = compileSnapshot(createTestSnapshot());
    const dependencies: PipelineDependencies = {
      snapshots: { current: () => snapshot },
      usage: {
        enqueue: (event) => void queued.push(event),
        record: (event) => {
          event.id = `journaled-${recorded.length + 1}`;
          recorded.push({ ...event });
        },
      },
      adapters: createAdapterRegistry({ transport, createAdapter: () => createDemoAdapter() }),
      admission: createAdmissionController({ store: createMemoryStore() }),
      requestTimeoutMs: 10_000,
    };
    const body = { model: "demo/demo/decider", state: "s", questions: { ok: { type: "noul", instructions: "Is it fine?" } } };
    const response = await runInferenceCall(dependencies, { requestId: "req_r", headers: { authorization: `Bearer ${testApiKey}` }, readBody: async () => body }, decisionEndpoint);
    expect(response.status).toBe(200);
    // Synchronously, before the answer could be written: a SIGKILL right after it cannot lose the event.
    expect(recorded).toEqual([expect.objectContaining({ id: "journaled-1", requestId: "req_r", status: 200, provider: "demo" })]);
    await vi.waitFor(() => expect(queued).toHaveLength(1));
    expect(queued[0]).toEqual(recorded[0]);
  });

  it("is optional: without it the event is only queued (memory durability)", async () => {
    const queued: UsageEventRecord[] = [];
    const snapshot = compileSnapshot(createTestSnapshot());
    const dependencies: PipelineDependencies = {
      snapshots: { current: () => snapshot },
      usage: { enqueue: (event) => void queued.push(event) },
      adapters: createAdapterRegistry({ transport, createAdapter: () => createDemoAdapter() }),
      admission: createAdmissionController({ store: createMemoryStore() }),
      requestTimeoutMs: 10_000,
    };
    const response = await runInferenceCall(dependencies, { requestId: "req_m", headers: {}, readBody: async () => ({}) }, decisionEndpoint);
    expect(response.status).toBe(401);
    await vi.waitFor(() => expect(queued).toEqual([expect.objectContaining({ requestId: "req_m", status: 401 })]));
    expect(queued[0]!.id).toBeUndefined();
  });
});

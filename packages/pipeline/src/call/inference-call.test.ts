import { createAdmissionController, createMemoryStore } from "@gateway/budget";
import type { UsageEventRecord } from "@gateway/contracts";
import { createDemoAdapter, createHttpTransport } from "@gateway/provider-adapters";
import { afterAll, describe, expect, it, vi } from "vitest";
import { createTestSnapshot, testApiKey } from "../__fixtures__/create-test-snapshot.js";
import { createAdapterRegistry } from "../runtime/adapter-registry.js";
import { compileSnapshot } from "../runtime/compile-snapshot.js";
import type { CallTarget } from "../stages/call-target.js";
import type { CallRouter } from "./call-router.js";
import type { InferenceEndpoint } from "./inference-endpoint.js";
import type { PipelineDependencies } from "./pipeline-dependencies.js";
import { runInferenceCall } from "./run-inference-call.js";

const transport = createHttpTransport();
afterAll(() => transport.close());

interface EchoRequest {
  name: string;
}

/** A router to something that is no provider connection: one target named after the request. */
const echoRouter: CallRouter<EchoRequest, CallTarget> = {
  recordsLatency: false,
  route: async ({ request }) => ({
    requestedModel: request.name,
    route: null,
    targets: [{ connection: { id: "echo_1", name: "echo" }, qualifiedModel: `echo/${request.name}`, upstreamModel: request.name }],
    maxAttemptsPerTarget: 1,
    affinityKey: null,
  }),
  adapterFor: () => null,
};

describe("the call's stages", () => {
  it("hand the state prepare returned to invoke and complete, and call through the endpoint's own router", async () => {
    const prepared = { turns: ["earlier"] };
    const seen: { adapter: unknown; invokeState: unknown; completeState: unknown; completedAnswer: unknown } = {
      adapter: undefined,
      invokeState: undefined,
      completeState: undefined,
      completedAnswer: undefined,
    };
    const endpoint: InferenceEndpoint<EchoRequest, CallTarget, { turns: string[] }> = {
      name: "mcp",
      router: echoRouter,
      errorFormat: "gateway",
      capturesContent: false,
      guardrailFormat: null,
      parse: (body) => body as EchoRequest,
      model: (request) => request.name,
      // A new request object: nothing is keyed by the request the caller sent.
      prepare: async ({ request }) => ({ request: { ...request }, state: prepared }),
      admission: () => null,
      async invoke({ adapter, request, state, target }) {
        seen.adapter = adapter;
        seen.invokeState = state;
        return { kind: "json", status: 200, body: { echoed: request.name, by: target.connection.name }, usage: null };
      },
      async complete({ state, answer }) {
        seen.completeState = state;
        seen.completedAnswer = answer;
      },
    };
    const events: UsageEventRecord[] = [];
    const snapshot = compileSnapshot(createTestSnapshot());
    const dependencies: PipelineDependencies = {
      snapshots: { current: () => snapshot },
      usage: { enqueue: (event) => void events.push(event) },
      adapters: createAdapterRegistry({ transport, createAdapter: () => createDemoAdapter() }),
      admission: createAdmissionController({ store: createMemoryStore() }),
      requestTimeoutMs: 10_000,
    };

    const answer = await runInferenceCall(
      dependencies,
      { requestId: "req_stages", headers: { authorization: `Bearer ${testApiKey}` }, readBody: async () => ({ name: "lookup" }) },
      endpoint,
    );

    expect(answer).toMatchObject({ kind: "json", status: 200, body: { echoed: "lookup", by: "echo" } });
    expect(seen.adapter).toBeNull();
    expect(seen.invokeState).toBe(prepared);
    expect(seen.completeState).toBe(prepared);
    expect(seen.completedAnswer).toEqual({ echoed: "lookup", by: "echo" });
    await vi.waitFor(() => expect(events).toHaveLength(1));
    expect(events[0]).toMatchObject({ requestId: "req_stages", status: 200, provider: "echo", model: "lookup" });
  });
});

import { createAdmissionController, createMemoryStore } from "@gateway/budget";
import type { UsageEventRecord } from "@gateway/contracts";
import { GatewayError } from "@gateway/errors";
import { type ProviderAdapter, type ProviderCallContext, createDemoAdapter } from "@gateway/provider-adapters";
import { describe, expect, it, vi } from "vitest";
import { createTestSnapshot, testApiKey } from "../__fixtures__/create-test-snapshot.js";
import { chatCompletionsEndpoint } from "../endpoints/chat-endpoints.js";
import { createAdapterRegistry } from "../runtime/adapter-registry.js";
import { compileSnapshot } from "../runtime/compile-snapshot.js";
import { type InferenceCallObserver, type ObservedAttemptEnd, type ObservedCallEnd, combineCallObservers } from "./inference-call-observer.js";
import type { PipelineDependencies } from "./pipeline-dependencies.js";
import { runInferenceCall } from "./run-inference-call.js";

/** The demo adapter, failing the first `failures` chat calls with a retryable 502 and keeping each call's context. */
function flakyDemoAdapter(failures: number) {
  const demo = createDemoAdapter();
  const contexts: ProviderCallContext[] = [];
  let calls = 0;
  const adapter: ProviderAdapter = {
    ...demo,
    chat: {
      passthrough: demo.chat!.passthrough,
      send: async (format, body, target, context) => {
        contexts.push(context);
        calls += 1;
        if (calls <= failures) throw new GatewayError("upstream_error", { message: "flaky", retryable: true });
        return demo.chat!.send!(format, body, target, context);
      },
    },
  };
  return { adapter, contexts };
}

function recordingObserver() {
  const log: string[] = [];
  const attempts: ObservedAttemptEnd[] = [];
  const ends: ObservedCallEnd[] = [];
  const observer: InferenceCallObserver = {
    callStarted: (start) => {
      log.push(`started ${start.endpoint}`);
      return {
        authenticated: (identity) => void log.push(`authenticated ${identity.organization.id}`),
        attemptStarted: (attempt) => {
          log.push(`attempt ${attempt.index} ${attempt.kind} ${attempt.target.qualifiedModel}`);
          return { traceparent: `00-${"a".repeat(32)}-${String(attempt.index).padStart(16, "0")}-01` };
        },
        attemptEnded: (attempt) => void attempts.push(attempt),
        callEnded: (end) => void ends.push(end),
      };
    },
  };
  return { observer, log, attempts, ends };
}

function dependenciesWith(adapter: ProviderAdapter, observer: InferenceCallObserver | undefined) {
  const events: UsageEventRecord[] = [];
  const snapshot = compileSnapshot(
    createTestSnapshot({
      routes: [
        {
          id: "rte_1",
          organizationId: "org_1",
          alias: "fast",
          strategy: "priority",
          targets: [
            { model: "demo/demo/decider", weight: 1 },
            { model: "demo/demo/chat", weight: 1 },
          ],
          affinity: { enabled: false, ttlSeconds: 60 },
          retry: { maxAttempts: 2 },
        },
      ],
    }),
  );
  const dependencies: PipelineDependencies = {
    snapshots: { current: () => snapshot },
    usage: { enqueue: (event) => void events.push(event) },
    adapters: createAdapterRegistry({ transport: undefined as never, createAdapter: () => adapter }),
    admission: createAdmissionController({ store: createMemoryStore() }),
    requestTimeoutMs: 10_000,
    ...(observer === undefined ? {} : { observer }),
  };
  return { dependencies, events };
}

const call = (dependencies: PipelineDependencies, requestId: string) =>
  runInferenceCall(
    dependencies,
    { requestId, headers: { authorization: `Bearer ${testApiKey}` }, readBody: async () => ({ model: "fast", messages: [{ role: "user", content: "Hi" }] }) },
    chatCompletionsEndpoint,
  );

describe("the call skeleton's observer", () => {
  it("is told each fact once, in order: start, caller, each attempt (first, retry, fallback) with its outcome, then the settled end", async () => {
    const { adapter, contexts } = flakyDemoAdapter(2);
    const recording = recordingObserver();
    const { dependencies, events } = dependenciesWith(adapter, recording.observer);
    const answer = await call(dependencies, "req_observed");
    expect(answer).toMatchObject({ kind: "json", status: 200 });
    await vi.waitFor(() => expect(recording.ends).toHaveLength(1));

    expect(recording.log).toEqual([
      "started chat_completions",
      "authenticated org_1",
      "attempt 0 first demo/demo/decider",
      "attempt 1 retry demo/demo/decider",
      "attempt 2 fallback demo/demo/chat",
    ]);
    expect(recording.attempts.map((attempt) => [attempt.index, attempt.error?.code ?? null])).toEqual([
      [0, "upstream_error"],
      [1, "upstream_error"],
      [2, null],
    ]);
    for (const attempt of recording.attempts) expect(attempt.endedAt).toBeGreaterThanOrEqual(attempt.startedAt);
    // The observer's headers reach the provider call of their attempt.
    expect(contexts.map((context) => context.extraHeaders?.traceparent?.slice(-4))).toEqual(["0-01", "1-01", "2-01"]);

    const [end] = recording.ends;
    expect(end!.event).toBe(events[0]);
    expect(end).toMatchObject({ error: null, streamed: false, target: { qualifiedModel: "demo/demo/chat" } });
    expect(end!.answeredAt).not.toBeNull();
    expect(end!.event).toMatchObject({ requestId: "req_observed", status: 200, model: "demo/chat" });
  });

  it("ends a call refused before any attempt with its error, and without an observer sends no extra headers", async () => {
    const recording = recordingObserver();
    const { dependencies } = dependenciesWith(flakyDemoAdapter(0).adapter, recording.observer);
    const refused = await runInferenceCall(dependencies, { requestId: "req_refused", headers: {}, readBody: async () => ({}) }, chatCompletionsEndpoint);
    expect(refused.status).toBe(401);
    await vi.waitFor(() => expect(recording.ends).toHaveLength(1));
    expect(recording.ends[0]).toMatchObject({ error: { code: "invalid_gateway_api_key" }, answeredAt: null, target: null });
    expect(recording.log).toEqual(["started chat_completions"]);

    const plain = flakyDemoAdapter(0);
    const unobserved = dependenciesWith(plain.adapter, undefined);
    expect((await call(unobserved.dependencies, "req_plain")).status).toBe(200);
    expect(plain.contexts[0]!.extraHeaders).toBeUndefined();
  });

  it("combines observers: every one is told, attempt headers are merged, and none means undefined", async () => {
    expect(combineCallObservers([undefined, null])).toBeUndefined();
    const first = recordingObserver();
    const second: InferenceCallObserver = { callStarted: () => ({ attemptStarted: () => ({ "x-second": "yes" }), callEnded: () => undefined }) };
    const { adapter, contexts } = flakyDemoAdapter(0);
    const { dependencies } = dependenciesWith(adapter, combineCallObservers([first.observer, second]));
    expect((await call(dependencies, "req_combined")).status).toBe(200);
    await vi.waitFor(() => expect(first.ends).toHaveLength(1));
    expect(contexts[0]!.extraHeaders).toEqual({ traceparent: `00-${"a".repeat(32)}-0000000000000000-01`, "x-second": "yes" });
  });
});

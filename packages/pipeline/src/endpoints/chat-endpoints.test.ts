import { createAdmissionController, createMemoryStore } from "@gateway/budget";
import {
  type ProviderAdapter,
  type SseEvent,
  callAbortFollowing,
  chatCompletionsFormat,
  createDemoAdapter,
  createHttpTransport,
  decodeSseStream,
} from "@gateway/provider-adapters";
import { afterAll, describe, expect, it, vi } from "vitest";
import { createTestSnapshot, testApiKey } from "../__fixtures__/create-test-snapshot.js";
import { createAdapterRegistry } from "../runtime/adapter-registry.js";
import { compileSnapshot } from "../runtime/compile-snapshot.js";
import { createPlaygroundRunner } from "./create-playground-runner.js";
import type { PipelineDependencies } from "../call/pipeline-dependencies.js";
import { runInferenceCall } from "../call/run-inference-call.js";
import { chatCompletionsEndpoint, messagesEndpoint } from "./chat-endpoints.js";
import { countTokensEndpoint } from "./count-tokens-endpoint.js";
import type { UsageEventRecord } from "@gateway/contracts";

const transport = createHttpTransport();
afterAll(() => transport.close());

function createDependencies(options: { adapter?: ProviderAdapter; captureContent?: boolean } = {}) {
  const events: UsageEventRecord[] = [];
  const base = createTestSnapshot();
  const snapshot = compileSnapshot({
    ...base,
    projects: base.projects.map((project) => ({ ...project, captureContent: options.captureContent ?? false })),
  });
  const dependencies: PipelineDependencies = {
    snapshots: { current: () => snapshot },
    usage: { enqueue: (event) => void events.push(event) },
    adapters: createAdapterRegistry({ transport, createAdapter: () => options.adapter ?? createDemoAdapter() }),
    admission: createAdmissionController({ store: createMemoryStore() }),
    requestTimeoutMs: 10_000,
  };
  return { dependencies, events };
}

const chatBody = { model: "demo/demo/chat", messages: [{ role: "user", content: "Hello" }] };

describe("chat, messages and count_tokens on the call skeleton (no HTTP)", () => {
  it("answers JSON and records a chat_completions usage event, with content only when the project captures it", async () => {
    const { dependencies, events } = createDependencies({ captureContent: true });
    const answer = await runInferenceCall(dependencies, { requestId: "req_a", headers: { authorization: `Bearer ${testApiKey}` }, readBody: async () => chatBody }, chatCompletionsEndpoint);
    expect(answer).toMatchObject({ kind: "json", status: 200, headers: { "x-request-id": "req_a", "x-gateway-demo": "true" } });
    await vi.waitFor(() => expect(events).toHaveLength(1));
    expect(events[0]).toMatchObject({ endpoint: "chat_completions", status: 200, provider: "demo", content: { request: chatBody } });
    expect(events[0]!.outputTokens).toBeGreaterThan(0);

    const quiet = createDependencies({ captureContent: false });
    await runInferenceCall(quiet.dependencies, { requestId: "req_b", headers: { authorization: `Bearer ${testApiKey}` }, readBody: async () => chatBody }, chatCompletionsEndpoint);
    await vi.waitFor(() => expect(quiet.events).toHaveLength(1));
    expect(quiet.events[0]!.content).toBeNull();
  });

  it("the messages call accepts x-api-key and answers errors with the Anthropic body", async () => {
    const { dependencies } = createDependencies();
    const ok = await runInferenceCall(dependencies, { requestId: "req_c", headers: { "x-api-key": testApiKey }, readBody: async () => ({ ...chatBody, max_tokens: 10 }) }, messagesEndpoint);
    expect(ok.status).toBe(200);
    const missing = await runInferenceCall(dependencies, { requestId: "req_d", headers: { "x-api-key": testApiKey }, readBody: async () => ({ ...chatBody, model: "demo/demo/none" }) }, messagesEndpoint);
    expect(missing).toMatchObject({ kind: "json", status: 404, body: { type: "error", error: { type: "not_found_error" }, request_id: "req_d" } });
  });

  it("authenticates before reading the body", async () => {
    const { dependencies } = createDependencies();
    const readBody = vi.fn(async () => chatBody);
    const answer = await runInferenceCall(dependencies, { requestId: "req_e", headers: {}, readBody }, chatCompletionsEndpoint);
    expect(answer.status).toBe(401);
    expect(readBody).not.toHaveBeenCalled();
  });

  it("a stream the caller abandons is settled with partial usage (never free) and status 499", async () => {
    const adapter: ProviderAdapter = {
      ...createDemoAdapter(),
      chat: { passthrough: ["openai-chat"], send: async (_format, _body, _target, context) => ({
        kind: "stream",
        status: 200,
        format: "openai-chat",
        frames: decodeSseStream(
          (async function* (): AsyncGenerator<SseEvent> {
            yield { data: JSON.stringify({ id: "c", object: "chat.completion.chunk", choices: [{ index: 0, delta: { content: "abcdefgh" }, finish_reason: null }] }) };
            await new Promise((_resolve, reject) => context.abort.signal.addEventListener("abort", () => reject(context.abort.signal.reason), { once: true }));
          })(),
          chatCompletionsFormat.createStreamDecoder(),
        ),
      }) },
    };
    const { dependencies, events } = createDependencies({ adapter });
    const caller = new AbortController();
    const answer = await runInferenceCall(dependencies, {
      requestId: "req_f",
      headers: { authorization: `Bearer ${testApiKey}` },
      readBody: async () => ({ ...chatBody, stream: true }),
      abort: callAbortFollowing(caller.signal),
      bodyBytes: 400,
    }, chatCompletionsEndpoint);
    expect(answer.kind).toBe("stream");
    if (answer.kind !== "stream") return;
    const iterator = answer.events[Symbol.asyncIterator]();
    expect((await iterator.next()).value.data).toContain("abcdefgh");
    const pending = iterator.next();
    caller.abort();
    expect((await pending).done).toBe(true);
    await vi.waitFor(() => expect(events).toHaveLength(1));
    expect(events[0]).toMatchObject({ status: 499, errorCode: "client_cancelled", outputTokens: 2, inputTokens: 100 });
  });

  it("count_tokens answers the count with headers saying where it came from", async () => {
    const { dependencies, events } = createDependencies();
    const answer = await runInferenceCall(dependencies, { requestId: "req_g", headers: { "x-api-key": testApiKey }, readBody: async () => chatBody }, countTokensEndpoint);
    expect(answer.status).toBe(200);
    expect(answer.headers).toMatchObject({ "x-gateway-token-count": "local", "x-gateway-token-count-accuracy": "estimate" });
    if (answer.kind !== "json") throw new Error("expected JSON");
    expect((answer.body as { input_tokens: number }).input_tokens).toBeGreaterThan(0);
    expect(events[0]).toMatchObject({ endpoint: "count_tokens", status: 200, costMicros: 0 });
  });

  it("the playground runner acts as the key by id, records the user, and throws errors before the answer", async () => {
    const { dependencies, events } = createDependencies();
    const runner = createPlaygroundRunner(dependencies);
    const input = { requestId: "req_h", organizationId: "org_1", apiKeyId: "key_1", userId: "usr_1", body: chatBody, headers: {}, signal: new AbortController().signal };
    const answer = await runner.chat(input);
    expect(answer).toMatchObject({ kind: "json", status: 200 });
    await vi.waitFor(() => expect(events[0]).toMatchObject({ endpoint: "playground", userId: "usr_1", apiKeyId: "key_1" }));
    await expect(runner.chat({ ...input, requestId: "req_i", body: { ...chatBody, model: "nope" } })).rejects.toMatchObject({ code: "model_not_found" });
    await expect(runner.chat({ ...input, requestId: "req_j", apiKeyId: "key_unknown" })).rejects.toMatchObject({ code: "invalid_gateway_api_key" });
  });
});

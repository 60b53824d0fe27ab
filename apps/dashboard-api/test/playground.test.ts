import type { UsageEventRecord } from "@gateway/contracts";
import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { createAdmissionController, createMemoryStore } from "@gateway/budget";
import { createSecretBox, loadControlPlaneSnapshot, readControlPlaneVersion } from "@gateway/db";
import { GatewayError } from "@gateway/errors";
import { type SnapshotHolder, type UsageQueue, createAdapterRegistry, createPlaygroundRunner, createSnapshotHolder, createUsageQueue } from "@gateway/pipeline";
import { createHttpTransport } from "@gateway/provider-adapters";
import type { PlaygroundChatInput, PlaygroundRunner } from "@gateway/pipeline";
import { startTestDashboard, type TestDashboard } from "./support/test-dashboard.js";

describe("playground without a pipeline in the process", () => {
  it("answers 503 service_unavailable (never a made-up answer)", async () => {
    const harness = await startTestDashboard();
    try {
      const organizationId = (await harness.createOrganization()).id;
      const owner = await harness.createMember({ organizationId, role: "owner" });
      const cookie = await harness.login(owner.email, owner.password);
      const project = await harness.request("POST", "/api/projects", { cookie, body: { name: "p" } });
      const key = await harness.request("POST", "/api/api-keys", { cookie, body: { name: "k", project_id: project.body.id } });
      const response = await harness.request("POST", "/api/playground/chat", { cookie, body: { model: "demo/demo/echo", messages: [{ content: "hi" }], api_key_id: key.body.id } });
      expect(response.status).toBe(503);
      expect(response.body.error.code).toBe("service_unavailable");
    } finally {
      await harness.close();
    }
  });
});

/**
 * The dashboard's side of the playground: which key and user it hands to the pipeline, and how
 * it writes the pipeline's JSON or SSE answer. The runner below is a recording test double of the
 * pipeline entry (the gateway engineer tests the pipeline itself).
 */
describe("playground framing", () => {
  let harness: TestDashboard;
  let cookie: string;
  let memberCookie: string;
  let keyId: string;
  const calls: PlaygroundChatInput[] = [];
  let next: (input: PlaygroundChatInput) => ReturnType<PlaygroundRunner["chat"]>;

  beforeAll(async () => {
    harness = await startTestDashboard({ dependencies: { playground: { chat: (input) => (calls.push(input), next(input)) } } });
    const organizationId = (await harness.createOrganization()).id;
    const owner = await harness.createMember({ organizationId, role: "owner" });
    cookie = await harness.login(owner.email, owner.password);
    const member = await harness.createMember({ organizationId, role: "member" });
    memberCookie = await harness.login(member.email, member.password);
    const project = await harness.request("POST", "/api/projects", { cookie, body: { name: "p" } });
    keyId = (await harness.request("POST", "/api/api-keys", { cookie, body: { name: "k", project_id: project.body.id } })).body.id;
  });
  afterAll(async () => harness.close());

  it("hands the key, the user and the chat body to the pipeline and answers its JSON", async () => {
    next = async () => ({ kind: "json", status: 200, headers: { "x-request-id": "req_pipeline", "x-gateway-provider": "demo" }, body: { object: "chat.completion", choices: [] } });
    const response = await harness.request("POST", "/api/playground/chat", {
      cookie,
      body: { model: "demo/demo/echo", messages: [{ role: "user", content: "hi" }], api_key_id: keyId, temperature: 0 },
    });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ object: "chat.completion", choices: [] });
    expect(response.headers.get("x-gateway-provider")).toBe("demo");
    const call = calls.at(-1)!;
    expect(call).toMatchObject({ apiKeyId: keyId, body: { model: "demo/demo/echo", messages: [{ role: "user", content: "hi" }], stream: false, temperature: 0 } });
    expect(call.body).not.toHaveProperty("api_key_id");
    expect(call.requestId).toBe(response.headers.get("x-request-id"));
  });

  it("writes the stream as server-sent events and reports a failure after the start inside the stream", async () => {
    next = async () => ({
      kind: "stream",
      status: 200,
      headers: {},
      events: (async function* () {
        yield { data: JSON.stringify({ choices: [{ delta: { content: "Hel" } }] }) };
        yield { data: JSON.stringify({ choices: [{ delta: { content: "lo" } }] }) };
        throw new GatewayError("upstream_error", { message: "The provider went away." });
      })(),
    });
    const response = await harness.request("POST", "/api/playground/chat", { cookie, body: { model: "m", messages: [{ content: "hi" }], api_key_id: keyId, stream: true } });
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toMatch(/^text\/event-stream/);
    const frames = response.text.trim().split("\n\n");
    expect(frames).toHaveLength(3);
    expect(frames[0]).toBe(`data: ${JSON.stringify({ choices: [{ delta: { content: "Hel" } }] })}`);
    expect(frames[2]).toMatch(/^event: error\ndata: /);
    expect(JSON.parse(frames[2]!.split("data: ")[1]!).error).toMatchObject({ code: "upstream_error", message: "The provider went away." });
  });

  it("answers pipeline errors before the stream as dashboard errors", async () => {
    next = async () => {
      throw new GatewayError("model_not_allowed");
    };
    const response = await harness.request("POST", "/api/playground/chat", { cookie, body: { model: "m", messages: [{ content: "hi" }], api_key_id: keyId } });
    expect(response.status).toBe(403);
    expect(response.body.error.code).toBe("model_not_allowed");
  });

  it("refuses keys of projects the member is not assigned to, and other organizations' keys", async () => {
    const count = calls.length;
    const notMine = await harness.request("POST", "/api/playground/chat", { cookie: memberCookie, body: { model: "m", messages: [{ content: "hi" }], api_key_id: keyId } });
    expect(notMine.status).toBe(403);
    const unknown = await harness.request("POST", "/api/playground/chat", { cookie, body: { model: "m", messages: [{ content: "hi" }], api_key_id: "key-of-another-org" } });
    expect(unknown.status).toBe(404);
    expect((await harness.request("POST", "/api/playground/chat", { cookie, body: { model: "m", messages: [], api_key_id: keyId } })).status).toBe(400);
    expect(calls.length).toBe(count);
  });
});

/**
 * The playground end to end: the dashboard and the gateway's pipeline in one process (as
 * `pnpm start` wires them), on the same database, with the built-in demo provider. The runner is
 * the pipeline's own `createPlaygroundRunner` (what the gateway runtime's
 * `createPlaygroundRunner()` returns), over a snapshot holder reading the dashboard's database.
 */
describe("playground through the gateway pipeline", () => {
  let harness: TestDashboard;
  let snapshots: SnapshotHolder;
  let usageQueue: UsageQueue;
  const transport = createHttpTransport();
  const events: UsageEventRecord[] = [];
  let runner: PlaygroundRunner | null = null;
  let cookie: string;
  let keyId: string;
  let ownerId: string;

  beforeAll(async () => {
    const secretBox = createSecretBox({ keys: [{ id: "test", key: randomBytes(32) }], activeKeyId: "test" });
    harness = await startTestDashboard({ dependencies: { secretBox, playground: { chat: (input) => runner!.chat(input) } } });
    const database = harness.database;
    snapshots = createSnapshotHolder({
      source: { load: () => loadControlPlaneSnapshot(database, { secretBox }), readVersion: () => readControlPlaneVersion(database) },
      pollIntervalMs: 60_000,
    });
    await snapshots.start();
    usageQueue = createUsageQueue({ sink: { write: async (batch) => void events.push(...batch) }, flushIntervalMs: 10 });
    const dependencies = {
      snapshots,
      usage: usageQueue,
      adapters: createAdapterRegistry({ transport }),
      admission: createAdmissionController({ store: createMemoryStore() }),
      requestTimeoutMs: 10_000,
    };
    runner = createPlaygroundRunner(dependencies, { refreshSnapshot: async () => void (await snapshots.refresh()) });

    const organizationId = (await harness.createOrganization()).id;
    const owner = await harness.createMember({ organizationId, role: "owner" });
    ownerId = owner.userId;
    cookie = await harness.login(owner.email, owner.password);
    const project = await harness.request("POST", "/api/projects", { cookie, body: { name: "p" } });
    keyId = (await harness.request("POST", "/api/api-keys", { cookie, body: { name: "k", project_id: project.body.id } })).body.id;
    const connection = await harness.request("POST", "/api/connections", { cookie, body: { name: "demo", kind: "demo", models: ["demo/echo"] } });
    expect(connection.status).toBe(201);
  });
  afterAll(async () => {
    await snapshots?.stop();
    await usageQueue?.close({ timeoutMs: 1000 });
    await transport.close();
    await harness?.close();
  });

  it("answers a chat as the chosen key and records the signed-in user on a playground usage event", async () => {
    const response = await harness.request("POST", "/api/playground/chat", {
      cookie,
      body: { model: "demo/demo/echo", messages: [{ role: "user", content: "Hello" }], api_key_id: keyId },
    });
    expect(response.status, response.text).toBe(200);
    expect(response.body.object).toBe("chat.completion");
    expect(response.body.choices[0].message.content).toContain("[demo]");
    const requestId = response.headers.get("x-request-id");
    const event = await vi.waitFor(() => {
      const found = events.find((candidate) => candidate.requestId === requestId);
      if (!found) throw new Error("no usage event yet");
      return found;
    });
    expect(event).toMatchObject({ endpoint: "playground", userId: ownerId, apiKeyId: keyId, provider: "demo", status: 200 });
  });

  it("streams the chat as server-sent events ending with [DONE]", async () => {
    const response = await harness.request("POST", "/api/playground/chat", {
      cookie,
      body: { model: "demo/demo/echo", messages: [{ role: "user", content: "Hello" }], api_key_id: keyId, stream: true },
    });
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toMatch(/^text\/event-stream/);
    const frames = response.text.trim().split("\n\n");
    expect(frames.at(-1)).toBe("data: [DONE]");
    expect(JSON.parse(frames[0]!.slice("data: ".length))).toMatchObject({ object: "chat.completion.chunk" });
  });

  it("pipeline errors before the answer are dashboard errors (unknown model: 404)", async () => {
    const response = await harness.request("POST", "/api/playground/chat", {
      cookie,
      body: { model: "demo/demo/unknown", messages: [{ role: "user", content: "Hello" }], api_key_id: keyId },
    });
    expect(response.status).toBe(404);
    expect(response.body.error.code).toBe("model_not_found");
  });
});

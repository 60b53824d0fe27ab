import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GatewayError } from "@gateway/errors";
import type { PlaygroundChatInput, PlaygroundRunner } from "../src/playground/playground-runner.js";
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

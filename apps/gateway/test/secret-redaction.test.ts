import type { ControlPlaneSnapshot } from "@gateway/contracts";
import { Writable } from "node:stream";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createGatewayLogger } from "../src/logging/create-gateway-logger.js";
import { createGatewayTestSnapshot, testApiKey } from "./support/create-gateway-test-snapshot.js";
import { decisionBody, postDecision } from "./support/post-decision.js";
import { type TestGateway, startTestGateway } from "./support/start-test-gateway.js";
import { type WireProvider, anthropicHandler, openAiHandler, sendEvents, sendJson, sseFrame, startWireProvider } from "./support/wire-format-providers.js";

// Credentials shaped like the real ones; providers quote them back in odd ways.
const openAiCredential = "sk-proj-Q7vX2mL9pR4tW8yB3nK6cF1hJ5dG0sAe";
const anthropicCredential = "sk-ant-api03-Zu4Ty8Rq2Wp6Nm1Lk5Jh9Gf3Dc7Xb0Va";
const nativeCredential = "so-live-8HwQ3eR7tY1uI5oP9aS2dF6gJ0kL4zX";

/** Echoes a provider sends back: without the prefix, a middle part, masked in the middle. */
function echoesOf(credential: string): string[] {
  const withoutPrefix = credential.slice(credential.indexOf("-", 3) + 1);
  return [withoutPrefix, credential.slice(14, 28), `${credential.slice(0, 16)}*****${credential.slice(-12)}`];
}

/** True when `text` holds any 10-character run of `credential`. */
function leaks(text: string, credential: string): boolean {
  for (let start = 0; start + 10 <= credential.length; start += 1) if (text.includes(credential.slice(start, start + 10))) return true;
  return false;
}

let openaiUpstream: WireProvider;
let anthropicUpstream: WireProvider;
let nativeUpstream: WireProvider;
let gateway: TestGateway;

beforeAll(async () => {
  openaiUpstream = await startWireProvider(openAiHandler());
  anthropicUpstream = await startWireProvider(anthropicHandler());
  nativeUpstream = await startWireProvider((_request, response) => sendJson(response, 500, {}));
  const base = createGatewayTestSnapshot({ openai: openaiUpstream.url, anthropic: anthropicUpstream.url, systemone: nativeUpstream.url });
  const credentials: Record<string, string> = { con_openai: openAiCredential, con_anthropic: anthropicCredential, con_native: nativeCredential };
  const snapshot: ControlPlaneSnapshot = {
    ...base,
    connections: base.connections.map((connection) => ({ ...connection, credential: credentials[connection.id] ?? connection.credential })),
  };
  gateway = await startTestGateway(snapshot);
});

afterAll(async () => {
  await gateway?.close();
  await Promise.all([openaiUpstream?.close(), anthropicUpstream?.close(), nativeUpstream?.close()]);
});

beforeEach(() => {
  openaiUpstream.use(null);
  anthropicUpstream.use(null);
  nativeUpstream.use(null);
});

async function post(path: string, body: unknown): Promise<{ status: number; text: string; requestId: string | null }> {
  const response = await fetch(`${gateway.url}${path}`, {
    method: "POST",
    headers: { "content-type": "application/json", authorization: `Bearer ${testApiKey}` },
    body: JSON.stringify(body),
  });
  return { status: response.status, text: await response.text(), requestId: response.headers.get("x-request-id") };
}

const chat = (model: string, stream = false) => ({ model, messages: [{ role: "user", content: "Hi" }], max_tokens: 20, ...(stream ? { stream: true } : {}) });
const messages = (model: string, stream = false) => ({ model, max_tokens: 20, messages: [{ role: "user", content: "Hi" }], ...(stream ? { stream: true } : {}) });
const openAiModel = "openai-mock/openai/gpt-4o-mini";
const anthropicModel = "anthropic-mock/anthropic/claude-sonnet-4";

describe("a provider quoting the connection's credential never gets it to the caller", () => {
  it.each(echoesOf(openAiCredential))("OpenAI JSON error (%s), native chat and translated messages", async (echo) => {
    openaiUpstream.use((_request, response) => sendJson(response, 400, { error: { message: `Invalid key ${echo} for this project.`, type: "invalid_request_error" } }));
    for (const [path, body] of [["/v1/chat/completions", chat(openAiModel)], ["/v1/messages", messages(openAiModel)]] as const) {
      const answer = await post(path, body);
      expect(answer.status).toBe(400);
      expect(answer.requestId).not.toBeNull();
      expect(answer.text).toMatch(/Invalid key \[redacted\]\S* for this project\./);
      expect(leaks(answer.text, openAiCredential)).toBe(false);
    }
  });

  it.each(echoesOf(openAiCredential))("OpenAI in-stream error event (%s), native and translated", async (echo) => {
    openaiUpstream.use((request, response) =>
      void sendEvents(response, [
        sseFrame({ id: "c1", object: "chat.completion.chunk", created: 1, model: request.body.model, choices: [{ index: 0, delta: { role: "assistant", content: "Hi" }, finish_reason: null }] }),
        sseFrame({ error: { message: `Key ${echo} was revoked mid-stream.`, type: "server_error" } }),
      ]),
    );
    for (const [path, body] of [["/v1/chat/completions", chat(openAiModel, true)], ["/v1/messages", messages(openAiModel, true)]] as const) {
      const answer = await post(path, body);
      expect(answer.status).toBe(200);
      expect(answer.text).toContain("[redacted]");
      expect(leaks(answer.text, openAiCredential)).toBe(false);
    }
  });

  it.each(echoesOf(anthropicCredential))("Anthropic JSON error and in-stream error event (%s), native and translated", async (echo) => {
    anthropicUpstream.use((_request, response) => sendJson(response, 400, { type: "error", error: { type: "invalid_request_error", message: `x-api-key ${echo} is invalid` } }));
    for (const [path, body] of [["/v1/messages", messages(anthropicModel)], ["/v1/chat/completions", chat(anthropicModel)]] as const) {
      const answer = await post(path, body);
      expect(answer.status).toBe(400);
      expect(leaks(answer.text, anthropicCredential)).toBe(false);
    }
    anthropicUpstream.use((request, response) =>
      void sendEvents(response, [
        sseFrame({ type: "message_start", message: { id: "msg_1", type: "message", role: "assistant", model: request.body.model, content: [], stop_reason: null, stop_sequence: null, usage: { input_tokens: 5, output_tokens: 1 } } }, "message_start"),
        sseFrame({ type: "error", error: { type: "api_error", message: `credential ${echo} expired` } }, "error"),
      ]),
    );
    for (const [path, body] of [["/v1/messages", messages(anthropicModel, true)], ["/v1/chat/completions", chat(anthropicModel, true)]] as const) {
      const answer = await post(path, body);
      expect(answer.status).toBe(200);
      expect(answer.text).toContain("[redacted]");
      expect(leaks(answer.text, anthropicCredential)).toBe(false);
    }
  });

  it("a native decision provider's error payload passes through without the credential", async () => {
    const [withoutPrefix, middle] = echoesOf(nativeCredential);
    nativeUpstream.use((_request, response) =>
      sendJson(response, 401, { error: { code: "bad_key", message: `Unknown key ${withoutPrefix}`, hint: [`try ${middle}`] } }),
    );
    const answer = await postDecision(gateway.url, { apiKey: testApiKey, body: decisionBody("native/systemone/s1") });
    expect(answer.status).toBe(401);
    expect(answer.body).toMatchObject({ error: { code: "bad_key", message: "Unknown key [redacted]", hint: ["try [redacted]"] } });
    expect(leaks(JSON.stringify(answer.body), nativeCredential)).toBe(false);
  });
});

describe("gateway log lines", () => {
  it("never carry key shapes or bearer tokens, in the message or in any field", async () => {
    const lines: string[] = [];
    const destination = new Writable({ write: (chunk: Buffer, _encoding, done) => void (lines.push(chunk.toString("utf8")), done()) });
    const logger = createGatewayLogger({ format: "json", destination });
    logger.error(`Provider said: key ${anthropicCredential} is wrong`, new Error(`upstream echoed Bearer ${openAiCredential}`), { note: `xai-${"Q".repeat(30)}` });
    logger.info("gsk_AbCdEfGhIjKlMnOpQrSt rejected", { nested: { value: ["AIzaSyA1b2C3d4E5f6G7h8I9j0KlMnOpQrStUv"] } });
    await new Promise((resolve) => setImmediate(resolve));
    const output = lines.join("");
    expect(output).toContain("Provider said: key [redacted] is wrong");
    expect(output).toContain("Bearer [redacted]");
    expect(leaks(output, anthropicCredential) || leaks(output, openAiCredential)).toBe(false);
    for (const shape of ["xai-QQQQ", "gsk_AbCd", "AIzaSyA1"]) expect(output).not.toContain(shape);
  });

  it("print a key the gateway generated when the line says it is shown once on purpose", async () => {
    const lines: string[] = [];
    const destination = new Writable({ write: (chunk: Buffer, _encoding, done) => void (lines.push(chunk.toString("utf8")), done()) });
    const logger = createGatewayLogger({ format: "json", destination });
    const generated = `gak_${"A1b2C3d4".repeat(6)}`;
    logger.info(`API key (shown once, store it now): ${generated}`, { shown_once: true });
    logger.info(`API key: ${generated}`);
    await new Promise((resolve) => setImmediate(resolve));
    expect(lines[0]).toContain(generated);
    expect(lines[1]).not.toContain(generated);
  });
});

import { connect } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createGatewayTestSnapshot, testApiKey } from "./support/create-gateway-test-snapshot.js";
import { type TestGateway, startTestGateway } from "./support/start-test-gateway.js";
import { type WireProvider, anthropicHandler, openAiContentFrames, openAiHandler, sendEvents, startWireProvider } from "./support/wire-format-providers.js";

let openaiUpstream: WireProvider;
let anthropicUpstream: WireProvider;
let gateway: TestGateway;
let impatient: TestGateway;

beforeAll(async () => {
  [openaiUpstream, anthropicUpstream] = await Promise.all([startWireProvider(openAiHandler()), startWireProvider(anthropicHandler())]);
  const snapshot = createGatewayTestSnapshot({ openai: openaiUpstream.url, anthropic: anthropicUpstream.url });
  [gateway, impatient] = await Promise.all([startTestGateway(snapshot), startTestGateway(snapshot, { requestTimeoutMs: 400 })]);
});

afterAll(async () => {
  await Promise.all([gateway?.close(), impatient?.close()]);
  await Promise.all([openaiUpstream?.close(), anthropicUpstream?.close()]);
});

/** A JSON value nested `depth` levels deep (arrays), as text. */
const nested = (depth: number) => "[".repeat(depth) + "]".repeat(depth);

async function post(path: string, body: string | Buffer, headers: Record<string, string> = {}) {
  const response = await fetch(`${gateway.url}${path}`, {
    method: "POST",
    headers: { "content-type": "application/json", authorization: `Bearer ${testApiKey}`, "anthropic-version": "2023-06-01", ...headers },
    body,
  });
  const text = await response.text();
  return { status: response.status, requestId: response.headers.get("x-request-id"), text, body: JSON.parse(text) };
}

/** Sends raw bytes on a new connection and reads everything until the server closes it (or `waitMs` passes). */
function rawExchange(url: string, bytes: string, waitMs = 3000): Promise<{ status: number; headers: Record<string, string>; body: any; closed: boolean }> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname, () => socket.write(bytes));
    const parts: Buffer[] = [];
    let closed = false;
    const timer = setTimeout(() => socket.destroy(), waitMs);
    socket.on("data", (part: Buffer) => parts.push(part));
    socket.on("error", () => undefined);
    socket.on("end", () => void (closed = true));
    socket.on("close", () => {
      clearTimeout(timer);
      const text = Buffer.concat(parts).toString("utf8");
      const split = text.indexOf("\r\n\r\n");
      if (split === -1) {
        reject(new Error(`no HTTP answer: ${JSON.stringify(text)}`));
        return;
      }
      const [statusLine, ...headerLines] = text.slice(0, split).split("\r\n");
      const headers = Object.fromEntries(headerLines.map((line) => [line.slice(0, line.indexOf(":")).toLowerCase(), line.slice(line.indexOf(":") + 1).trim()]));
      const payload = text.slice(split + 4);
      try {
        resolve({ status: Number(statusLine!.split(" ")[1]), headers, body: payload === "" ? null : JSON.parse(payload), closed });
      } catch {
        reject(new Error(`not one JSON answer: ${JSON.stringify(text)}`));
      }
    });
  });
}

describe("deep and malformed JSON bodies", () => {
  it("refuses a 10 MB body nested 5,000,000 deep with 400 invalid_request and x-request-id", async () => {
    const deep = Buffer.alloc(10_000_000);
    deep.fill("[", 0, 5_000_000);
    deep.fill("]", 5_000_000);
    const answer = await post("/v1/chat/completions", deep);
    expect(answer.status).toBe(400);
    expect(answer.body.error).toMatchObject({ code: "invalid_request", type: "invalid_request_error", details: { max_depth: 128 } });
    expect(answer.requestId).toMatch(/^req_/);
    expect(answer.body.request_id).toBe(answer.requestId);
  });

  it.each([
    ["chat content", "/v1/chat/completions", (value: string) => `{"model":"openai-mock/openai/gpt-4o-mini","messages":[{"role":"user","content":${value}}]}`],
    [
      "a chat tool schema",
      "/v1/chat/completions",
      (value: string) => `{"model":"openai-mock/openai/gpt-4o-mini","messages":[{"role":"user","content":"hi"}],"tools":[{"type":"function","function":{"name":"f","parameters":{"type":"object","x":${value}}}}]}`,
    ],
    ["an extra chat field", "/v1/chat/completions", (value: string) => `{"model":"openai-mock/openai/gpt-4o-mini","messages":[{"role":"user","content":"hi"}],"metadata_extra":${value}}`],
    [
      "a messages tool schema (translated to OpenAI)",
      "/v1/messages",
      (value: string) => `{"model":"openai-mock/openai/gpt-4o-mini","max_tokens":10,"messages":[{"role":"user","content":"hi"}],"tools":[{"name":"f","input_schema":{"type":"object","x":${value}}}]}`,
    ],
    ["messages content (Anthropic)", "/v1/messages", (value: string) => `{"model":"anthropic-mock/anthropic/claude-sonnet-4","max_tokens":10,"messages":[{"role":"user","content":${value}}]}`],
    ["count_tokens", "/v1/messages/count_tokens", (value: string) => `{"model":"anthropic-mock/anthropic/claude-sonnet-4","messages":[{"role":"user","content":"hi"}],"system":${value}}`],
    ["a decision state", "/v1/systemone", (value: string) => `{"model":"demo/demo/decider","state":${value},"questions":{"q":{"type":"noul","instructions":"?"}}}`],
    ["responses input", "/v1/responses", (value: string) => `{"model":"openai-mock/openai/gpt-4o-mini","input":${value}}`],
    ["embeddings input", "/v1/embeddings", (value: string) => `{"model":"openai-mock/openai/gpt-4o-mini","input":${value}}`],
  ])("answers nesting of 10,000 inside %s with 400, never a 500", async (_name, path, body) => {
    const answer = await post(path, body(nested(10_000)));
    expect(answer.status, answer.text).toBe(400);
    expect(answer.requestId).toMatch(/^req_/);
    expect(answer.text).toContain("nested too deeply");
  });

  it("forwards a tool schema nested 120 deep (under the bound) without a 5xx", async () => {
    let schema: Record<string, unknown> = { type: "string" };
    for (let level = 0; level < 59; level++) schema = { type: "object", properties: { inner: schema } };
    const chat = await post(
      "/v1/chat/completions",
      JSON.stringify({ model: "openai-mock/openai/gpt-4o-mini", messages: [{ role: "user", content: "hi" }], tools: [{ type: "function", function: { name: "f", parameters: schema } }] }),
    );
    expect(chat.status, chat.text).toBe(200);
    const messages = await post(
      "/v1/messages",
      JSON.stringify({ model: "openai-mock/openai/gpt-4o-mini", max_tokens: 10, messages: [{ role: "user", content: "hi" }], tools: [{ name: "f", input_schema: schema }] }),
    );
    expect(messages.status, messages.text).toBe(200);
  });

  it.each([
    ["/v1/chat/completions", '{"model":"openai-mock/openai/gpt-4o-mini","messages":[{"role":"user","content":"\\ud800 hi"}]}'],
    ["/v1/chat/completions", '{"model":"openai-mock/openai/gpt-4o-mini","messages":[{"role":"user","content":"hi"}],"\\udc00":1}'],
    ["/v1/systemone", '{"model":"demo/demo/decider","state":"\\udbff","questions":{"q":{"type":"noul","instructions":"?"}}}'],
  ])("refuses an unpaired surrogate escape on %s with 400", async (path, body) => {
    const answer = await post(path, body);
    expect(answer.status, answer.text).toBe(400);
    expect(answer.body.error.code).toBe("invalid_request");
    expect(answer.body.error.message).toContain("unpaired UTF-16 surrogate");
  });
});

describe("requests refused by the HTTP parser", () => {
  const expectErrorAnswer = (answer: Awaited<ReturnType<typeof rawExchange>>, status: number, code: string) => {
    expect(answer.status).toBe(status);
    expect(answer.headers["content-type"]).toBe("application/json; charset=utf-8");
    expect(answer.headers.connection).toBe("close");
    expect(answer.headers["x-request-id"]).toMatch(/^req_/);
    expect(answer.body).toEqual({
      error: expect.objectContaining({ code, type: expect.any(String), message: expect.any(String) }),
      request_id: answer.headers["x-request-id"],
    });
  };

  it("answers bad chunking with 400 in the gateway error body and closes the connection", async () => {
    const answer = await rawExchange(
      gateway.url,
      `POST /v1/chat/completions HTTP/1.1\r\nHost: gateway\r\nAuthorization: Bearer ${testApiKey}\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n{}\r\n0\r\n\r\n`,
    );
    expectErrorAnswer(answer, 400, "invalid_request");
    expect(answer.closed).toBe(true);
  });

  it("answers a 20 KB header with 431 request_headers_too_large", async () => {
    const answer = await rawExchange(gateway.url, `GET /v1/models HTTP/1.1\r\nHost: gateway\r\nX-Padding: ${"a".repeat(20_000)}\r\n\r\n`);
    expectErrorAnswer(answer, 431, "request_headers_too_large");
  });

  it("answers bare LF line endings with 400", async () => {
    const answer = await rawExchange(gateway.url, `GET /v1/models HTTP/1.1\nHost: gateway\n\n`);
    expectErrorAnswer(answer, 400, "invalid_request");
  });

  it("answers Content-Length with Transfer-Encoding with 400", async () => {
    const answer = await rawExchange(
      gateway.url,
      `POST /v1/chat/completions HTTP/1.1\r\nHost: gateway\r\nContent-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n`,
    );
    expectErrorAnswer(answer, 400, "invalid_request");
  });

  it("answers an HTTP/1.1 request without Host with 400", async () => {
    const answer = await rawExchange(gateway.url, `GET /v1/models HTTP/1.1\r\nAuthorization: Bearer ${testApiKey}\r\n\r\n`);
    expectErrorAnswer(answer, 400, "invalid_request");
    expect(answer.body.error.param).toBe("host");
  });

  it("answers CONNECT with 404 in the gateway error body (Node closed the socket without a word)", async () => {
    const answer = await rawExchange(gateway.url, "CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n\r\n");
    expectErrorAnswer(answer, 404, "not_found");
  });

  it("serves a request with an unknown Expect as if it were absent (Node answered an empty 417)", async () => {
    const answer = await rawExchange(gateway.url, `GET /v1/models HTTP/1.1\r\nHost: gateway\r\nAuthorization: Bearer ${testApiKey}\r\nExpect: something\r\nConnection: close\r\n\r\n`);
    expect(answer.status).toBe(200);
    expect(answer.headers["x-request-id"]).toMatch(/^req_/);
    expect(answer.body.object).toBe("list");
  });

  it("answers a stalled body with 408 request_timeout at GATEWAY_REQUEST_TIMEOUT_MS and closes the connection", async () => {
    const answer = await rawExchange(
      impatient.url,
      `POST /v1/chat/completions HTTP/1.1\r\nHost: gateway\r\nAuthorization: Bearer ${testApiKey}\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"model":`,
    );
    expect(answer.status).toBe(408);
    expect(answer.body.error.code).toBe("request_timeout");
    expect(answer.headers["x-request-id"]).toMatch(/^req_/);
    expect(answer.body.request_id).toBe(answer.headers["x-request-id"]);
    // The server ends the connection at the timeout (before, it stayed open until Node's own 300 s).
    expect(answer.closed).toBe(true);
  });

  it("answers a request once when it was answered before its body stalled (a 401), then closes the connection at the timeout", async () => {
    const answer = await rawExchange(
      impatient.url,
      `POST /v1/chat/completions HTTP/1.1\r\nHost: gateway\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"model":`,
    );
    expect(answer.status).toBe(401);
    expect(answer.body.error.code).toBe("invalid_gateway_api_key");
    expect(answer.closed).toBe(true);
  });

  it("answers stalled headers with 408 in the gateway error body", async () => {
    const answer = await rawExchange(impatient.url, `GET /v1/models HTTP/1.1\r\nHost: gateway\r\n`);
    expectErrorAnswer(answer, 408, "request_timeout");
  });

  it("does not cut a stream that lasts longer than the request timeout (it bounds receiving the request only)", async () => {
    const pieces = Array.from({ length: 8 }, (_value, index) => `piece${index} `);
    openaiUpstream.use((_request, response) => sendEvents(response, openAiContentFrames("gpt-4o-mini", pieces, { end: true }), { pauseMs: 150 }));
    try {
      const response = await fetch(`${impatient.url}/v1/chat/completions`, {
        method: "POST",
        headers: { "content-type": "application/json", authorization: `Bearer ${testApiKey}` },
        body: JSON.stringify({ model: "openai-mock/openai/gpt-4o-mini", stream: true, messages: [{ role: "user", content: "hi" }] }),
      });
      expect(response.status).toBe(200);
      const text = await response.text();
      for (const piece of pieces) expect(text).toContain(piece);
      expect(text).toContain("[DONE]");
    } finally {
      openaiUpstream.use(null);
    }
  });
});

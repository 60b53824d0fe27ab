import { createServer } from "node:net";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { callContext, collect, rejectionOf, sendJson, startFakeUpstream } from "../test/fake-upstream.js";
import type { FakeUpstream } from "../test/fake-upstream.js";
import { CallAbort } from "./call-abort.js";
import { createHttpTransport } from "./http-transport.js";
import type { HttpTransport } from "./http-transport.js";

let upstream: FakeUpstream | undefined;
let transport: HttpTransport | undefined;

afterEach(async () => {
  await transport?.close();
  await upstream?.close();
  transport = undefined;
  upstream = undefined;
});

describe("createHttpTransport", () => {
  it("sends JSON and reuses one keep-alive socket for consecutive requests", async () => {
    upstream = await startFakeUpstream((request, response) => sendJson(response, 200, { echo: request.body }));
    transport = createHttpTransport();
    const first = await transport.requestJson({ url: `${upstream.url}/a`, body: { n: 1 }, headers: { "x-one": "1" }, context: callContext() });
    const second = await transport.requestJson({ url: `${upstream.url}/b?q=2`, body: { n: 2 }, context: callContext() });
    expect(first).toMatchObject({ status: 200, body: { echo: { n: 1 } } });
    expect(second.body).toEqual({ echo: { n: 2 } });
    expect(upstream.requests.map((request) => [request.method, request.path])).toEqual([
      ["POST", "/a"],
      ["POST", "/b?q=2"],
    ]);
    expect(upstream.requests[0]!.headers["x-one"]).toBe("1");
    expect(upstream.requests[0]!.headers["content-type"]).toBe("application/json");
    for (let index = 0; index < 4; index++) {
      await transport.requestJson({ url: `${upstream.url}/c`, body: { index }, context: callContext() });
    }
    // Six sequential requests share pooled keep-alive sockets (undici may open a second one
    // while the first is being released).
    expect(upstream.connectionCount()).toBeLessThanOrEqual(2);
  });

  it("returns non-2xx answers instead of throwing", async () => {
    upstream = await startFakeUpstream((_request, response) => sendJson(response, 418, { error: { message: "teapot" } }));
    transport = createHttpTransport();
    const answer = await transport.requestJson({ url: upstream.url, body: {}, context: callContext() });
    expect(answer.status).toBe(418);
    expect(answer.body).toEqual({ error: { message: "teapot" } });
  });

  it("streams body chunks before the upstream has finished (no whole-body buffering)", async () => {
    let finish: (() => void) | undefined;
    upstream = await startFakeUpstream((_request, response) => {
      response.writeHead(200, { "content-type": "text/event-stream" });
      response.write("first-chunk");
      finish = () => response.end("last-chunk");
    });
    transport = createHttpTransport();
    const answer = await transport.requestStream({ url: upstream.url, body: {}, context: callContext() });
    const iterator = answer.body[Symbol.asyncIterator]();
    const first = await iterator.next();
    expect(Buffer.from(first.value as Uint8Array).toString()).toBe("first-chunk");
    finish?.();
    const rest: string[] = [];
    for (let next = await iterator.next(); !next.done; next = await iterator.next()) rest.push(Buffer.from(next.value).toString());
    expect(rest.join("")).toBe("last-chunk");
  });

  it("aborting the caller's signal mid-stream closes the upstream socket and reports client_cancelled", async () => {
    upstream = await startFakeUpstream((_request, response) => {
      response.writeHead(200, { "content-type": "text/event-stream" });
      response.write("data: 1\n\n");
      // never ends: only the client can close this.
    });
    transport = createHttpTransport();
    const controller = new AbortController();
    const answer = await transport.requestStream({ url: upstream.url, body: {}, context: callContext({ signal: controller.signal }) });
    const iterator = answer.body[Symbol.asyncIterator]();
    await iterator.next();
    const closed = upstream.nextSocketClose();
    const pending = iterator.next();
    controller.abort();
    const error = await rejectionOf(pending);
    expect(error).toMatchObject({ code: "client_cancelled", status: 499, retryable: false });
    await closed; // the fake server saw its socket close
  });

  it("stopping iteration early closes the upstream socket", async () => {
    upstream = await startFakeUpstream((_request, response) => {
      response.writeHead(200, { "content-type": "text/event-stream" });
      response.write("data: 1\n\n");
    });
    transport = createHttpTransport();
    const answer = await transport.requestStream({ url: upstream.url, body: {}, context: callContext() });
    const closed = upstream.nextSocketClose();
    for await (const _chunk of answer.body) break;
    await closed;
  });

  it("returns the answer's headers lowercased, repeated ones joined", async () => {
    upstream = await startFakeUpstream((_request, response) => {
      response.setHeader("Retry-After", "7");
      response.setHeader("X-Many", ["a", "b"]);
      sendJson(response, 429, { error: { message: "slow down" } });
    });
    transport = createHttpTransport();
    const answer = await transport.requestJson({ url: upstream.url, body: {}, context: callContext() });
    expect(answer).toMatchObject({ status: 429, headers: { "retry-after": "7", "x-many": "a, b", "content-type": "application/json" } });
    expect(answer.text).toBe(JSON.stringify({ error: { message: "slow down" } }));
  });

  it("refuses a JSON answer over the size limit with 502 (not retryable) and closes the socket", async () => {
    upstream = await startFakeUpstream((_request, response) => sendJson(response, 200, { blob: "x".repeat(4096) }));
    transport = createHttpTransport({ maxJsonBodyBytes: 1024 });
    const closed = upstream.nextSocketClose();
    const error = await rejectionOf(transport.requestJson({ url: upstream.url, body: {}, context: callContext() }));
    expect(error).toMatchObject({ code: "upstream_error", status: 502, retryable: false });
    await closed;
  });

  it("an abort while the request waits for a free connection fails it at once without sending it", async () => {
    upstream = await startFakeUpstream(() => {
      // never answers: the only connection stays busy
    });
    transport = createHttpTransport({ connections: 1 });
    const busyController = new AbortController();
    const busy = transport.requestJson({ url: upstream.url, body: { n: 1 }, context: callContext({ signal: busyController.signal }) });
    busy.catch(() => undefined);
    while (upstream.requests.length === 0) await new Promise((resolve) => setImmediate(resolve));
    const controller = new AbortController();
    const queued = transport.requestJson({ url: upstream.url, body: { n: 2 }, context: callContext({ signal: controller.signal }) });
    controller.abort();
    expect(await rejectionOf(queued)).toMatchObject({ code: "client_cancelled" });
    // Freeing the connection does not send the cancelled request.
    busyController.abort();
    await rejectionOf(busy);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(upstream.requests).toHaveLength(1);
  });

  it("an abort while waiting for headers closes the socket", async () => {
    upstream = await startFakeUpstream(() => {
      // never answers
    });
    transport = createHttpTransport();
    const controller = new AbortController();
    const pending = transport.requestJson({ url: upstream.url, body: {}, context: callContext({ signal: controller.signal }) });
    while (upstream.requests.length === 0) await new Promise((resolve) => setImmediate(resolve));
    const closed = upstream.nextSocketClose();
    controller.abort();
    expect(await rejectionOf(pending)).toMatchObject({ code: "client_cancelled" });
    await closed;
  });

  it("a stream nobody reads stops the upstream (backpressure), and every byte arrives once it is read", async () => {
    const chunk = Buffer.alloc(64 * 1024, 97);
    const total = 32 * 1024 * 1024; // far more than the loopback socket buffers hold
    let written = 0;
    upstream = await startFakeUpstream(async (_request, response) => {
      response.writeHead(200, { "content-type": "text/event-stream" });
      while (written < total) {
        written += chunk.length;
        if (!response.write(chunk)) await new Promise((resolve) => response.once("drain", resolve));
      }
      response.end();
    });
    transport = createHttpTransport();
    const answer = await transport.requestStream({ url: upstream.url, body: {}, context: callContext() });
    await new Promise((resolve) => setTimeout(resolve, 300));
    // Unread, the gateway holds at most its high-water mark: the rest waits in the upstream.
    expect(written).toBeLessThan(total / 2);
    let received = 0;
    for await (const part of answer.body) received += part.length;
    expect(received).toBe(total);
  });

  it("a stream read to its end leaves no timer behind, even when it had arrived whole before it was read", async () => {
    upstream = await startFakeUpstream((_request, response) => {
      response.writeHead(200, { "content-type": "text/event-stream" });
      response.end("data: 1\n\ndata: 2\n\n");
    });
    transport = createHttpTransport({ idleTimeoutMs: 60_000, firstByteTimeoutMs: 60_000 });
    const timers = () => process.getActiveResourcesInfo().filter((resource) => resource === "Timeout").length;
    const before = timers();
    const answer = await transport.requestStream({ url: upstream.url, body: {}, context: callContext() });
    // The whole answer has arrived (and completed) before the first chunk is read.
    await new Promise((resolve) => setTimeout(resolve, 50));
    let text = "";
    for await (const part of answer.body) text += Buffer.from(part).toString();
    expect(text).toBe("data: 1\n\ndata: 2\n\n");
    // A timer left armed would hold the whole call in memory for the idle timeout.
    expect(timers()).toBe(before);
  });

  it("listens to the context's CallAbort without ever making its AbortSignal", async () => {
    upstream = await startFakeUpstream((request, response) => {
      if (request.path === "/slow") return; // never answers: only the caller's abort ends it
      if (request.path === "/stream") {
        response.writeHead(200, { "content-type": "text/event-stream" });
        response.write("data: 1\n\n");
        return;
      }
      sendJson(response, 200, { ok: true });
    });
    transport = createHttpTransport();
    // A context whose signal throws when read: the transport must go through `abort`.
    const contextWith = (abort: CallAbort) => ({
      requestId: "req_test",
      abort,
      deadline: Date.now() + 20_000,
      get signal(): AbortSignal {
        throw new Error("the AbortSignal was read");
      },
    });
    expect((await transport.requestJson({ url: upstream.url, body: {}, context: contextWith(new CallAbort()) })).body).toEqual({ ok: true });

    const jsonAbort = new CallAbort();
    const pending = transport.requestJson({ url: `${upstream.url}/slow`, body: {}, context: contextWith(jsonAbort) });
    while (!upstream.requests.some((request) => request.path === "/slow")) await new Promise((resolve) => setImmediate(resolve));
    const jsonClosed = upstream.nextSocketClose();
    jsonAbort.abort();
    expect(await rejectionOf(pending)).toMatchObject({ code: "client_cancelled", status: 499 });
    await jsonClosed;

    const streamAbort = new CallAbort();
    const answer = await transport.requestStream({ url: `${upstream.url}/stream`, body: {}, context: contextWith(streamAbort) });
    const iterator = answer.body[Symbol.asyncIterator]();
    await iterator.next();
    const streamClosed = upstream.nextSocketClose();
    const next = iterator.next();
    streamAbort.abort();
    expect(await rejectionOf(next)).toMatchObject({ code: "client_cancelled", status: 499 });
    await streamClosed;

    const gone = new CallAbort();
    gone.abort();
    expect(await rejectionOf(transport.requestJson({ url: upstream.url, body: {}, context: contextWith(gone) }))).toMatchObject({ code: "client_cancelled" });
  });

  it("the deadline gives 504 upstream_timeout that is not retryable", async () => {
    upstream = await startFakeUpstream(() => {
      // never answers
    });
    transport = createHttpTransport();
    const error = await rejectionOf(transport.requestJson({ url: upstream.url, body: {}, context: callContext({ timeoutMs: 50 }) }));
    expect(error).toMatchObject({ code: "upstream_timeout", status: 504, retryable: false });
  });

  it("a deadline already passed fails without calling upstream", async () => {
    upstream = await startFakeUpstream((_request, response) => sendJson(response, 200, {}));
    transport = createHttpTransport();
    const context = { ...callContext(), deadline: Date.now() - 1 };
    expect(await rejectionOf(transport.requestJson({ url: upstream.url, body: {}, context }))).toMatchObject({ code: "upstream_timeout" });
    expect(upstream.requests).toHaveLength(0);
  });

  it("a JSON call slower than the total timeout gives 504 upstream_timeout that is retryable (another target may be faster)", async () => {
    upstream = await startFakeUpstream(() => {
      // never answers
    });
    transport = createHttpTransport({ totalTimeoutMs: 50 });
    const error = await rejectionOf(transport.requestJson({ url: upstream.url, body: {}, context: callContext() }));
    expect(error).toMatchObject({ code: "upstream_timeout", status: 504, retryable: true });
    expect(error.message).toContain("within 50 ms");
  });

  it("a connection's own total timeout overrides the global one", async () => {
    upstream = await startFakeUpstream(() => {
      // never answers
    });
    transport = createHttpTransport({ totalTimeoutMs: 60_000 });
    const started = Date.now();
    const error = await rejectionOf(transport.requestJson({ url: upstream.url, body: {}, context: callContext(), timeouts: { totalMs: 50 } }));
    expect(error).toMatchObject({ code: "upstream_timeout", retryable: true });
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  it("a healthy stream that lasts longer than the JSON total timeout and the request deadline completes", async () => {
    upstream = await startFakeUpstream((_request, response) => {
      response.writeHead(200, { "content-type": "text/event-stream" });
      let sent = 0;
      const timer = setInterval(() => {
        sent += 1;
        response.write(`data: ${sent}\n\n`);
        if (sent === 8) {
          clearInterval(timer);
          response.end();
        }
      }, 40);
    });
    transport = createHttpTransport({ totalTimeoutMs: 100, idleTimeoutMs: 1_000 });
    const answer = await transport.requestStream({ url: upstream.url, body: {}, context: callContext({ timeoutMs: 150 }) });
    const text = Buffer.concat((await collect(answer.body)).map((chunk) => Buffer.from(chunk))).toString();
    expect(text.match(/data: \d+/g)).toHaveLength(8);
  });

  it("a stream whose headers come but no bytes within the first-byte timeout gives 504", async () => {
    upstream = await startFakeUpstream((_request, response) => {
      response.writeHead(200, { "content-type": "text/event-stream" });
      response.flushHeaders();
    });
    transport = createHttpTransport({ firstByteTimeoutMs: 80, idleTimeoutMs: 10_000 });
    const answer = await transport.requestStream({ url: upstream.url, body: {}, context: callContext() });
    const error = await rejectionOf(collect(answer.body));
    expect(error).toMatchObject({ code: "upstream_timeout", status: 504 });
    expect(error.message).toContain("did not start streaming within 80 ms");
  });

  it("a stream that goes silent after it started gives 504 after the idle timeout (a connection's own value wins)", async () => {
    upstream = await startFakeUpstream((_request, response) => {
      response.writeHead(200);
      response.write("x");
    });
    transport = createHttpTransport({ idleTimeoutMs: 60_000 });
    const answer = await transport.requestStream({ url: upstream.url, body: {}, context: callContext(), timeouts: { idleMs: 50 } });
    const error = await rejectionOf(collect(answer.body));
    expect(error).toMatchObject({ code: "upstream_timeout", retryable: false });
    expect(error.message).toContain("went silent for 50 ms");
  });

  it("a stream that keeps sending is cut at its maximum duration when one is set", async () => {
    let timer: NodeJS.Timeout | undefined;
    upstream = await startFakeUpstream((_request, response) => {
      response.writeHead(200);
      timer = setInterval(() => response.write("x"), 10);
      response.on("close", () => clearInterval(timer));
    });
    transport = createHttpTransport({ maxStreamDurationMs: 120 });
    const answer = await transport.requestStream({ url: upstream.url, body: {}, context: callContext() });
    const error = await rejectionOf(collect(answer.body));
    clearInterval(timer);
    expect(error).toMatchObject({ code: "upstream_timeout", retryable: false });
    expect(error.message).toContain("maximum duration of 120 ms");
  });

  it("connection refused gives 503 service_unavailable (retryable) without the URL in the message", async () => {
    const probe = createServer();
    await new Promise<void>((resolve) => probe.listen(0, "127.0.0.1", resolve));
    const { port } = probe.address() as AddressInfo;
    await new Promise<void>((resolve) => probe.close(() => resolve()));
    transport = createHttpTransport();
    const error = await rejectionOf(
      transport.requestJson({ url: `http://127.0.0.1:${port}/v1?key=secret`, body: {}, context: callContext(), provider: "conn-a" }),
    );
    expect(error).toMatchObject({ code: "service_unavailable", status: 503, retryable: true, details: { provider: "conn-a" } });
    expect(error.message).not.toContain("secret");
    expect(error.message).not.toContain(String(port));
  });

  it("a connection reset gives 502 upstream_error (retryable)", async () => {
    upstream = await startFakeUpstream((_request, response) => {
      response.socket?.destroy();
    });
    transport = createHttpTransport();
    const error = await rejectionOf(transport.requestJson({ url: upstream.url, body: {}, context: callContext() }));
    expect(error).toMatchObject({ code: "upstream_error", status: 502, retryable: true });
  });
});

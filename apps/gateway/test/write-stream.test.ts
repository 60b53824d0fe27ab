import { type Server, createServer } from "node:http";
import { type AddressInfo, type Socket, connect } from "node:net";
import type { SseEvent } from "@gateway/provider-adapters";
import { afterEach, describe, expect, it } from "vitest";
import { writeStream } from "../src/write-pipeline-response.js";

let server: Server | null = null;
afterEach(async () => {
  server?.closeAllConnections();
  await new Promise<void>((resolve) => (server === null ? resolve() : server.close(() => resolve())));
  server = null;
});

/** What the server wrote to the client's socket so far (each write as handed to the socket). */
let written = "";

/** Serves `events` with writeStream; returns the port. */
async function serve(events: () => AsyncIterable<SseEvent>) {
  written = "";
  server = createServer((_request, response) => {
    const socket = response.socket as Socket & { _writeGeneric: (writev: boolean, data: unknown, ...rest: unknown[]) => unknown };
    const original = socket._writeGeneric.bind(socket);
    socket._writeGeneric = (writev, data, ...rest) => {
      const chunks = writev ? (data as { chunk: unknown }[]).map((entry) => entry.chunk) : [data];
      for (const chunk of chunks) written += typeof chunk === "string" ? chunk : Buffer.from(chunk as Uint8Array).toString("utf8");
      return original(writev, data, ...rest);
    };
    void writeStream(response, { kind: "stream", status: 200, headers: { "x-request-id": "req_test" }, events: events() }, { aborted: false });
  }).listen(0, "127.0.0.1");
  await new Promise<void>((resolve) => server!.once("listening", () => resolve()));
  return (server!.address() as AddressInfo).port;
}

/** Sends one request on a raw socket; records when each `data:` payload arrived and the whole text. */
function read(port: number): Promise<{ text: string; arrivals: Map<string, number>; started: number }> {
  return new Promise((resolve, reject) => {
    const socket = connect({ host: "127.0.0.1", port });
    const started = Date.now();
    const arrivals = new Map<string, number>();
    let text = "";
    socket.on("data", (chunk) => {
      text += chunk.toString("utf8");
      for (const match of text.matchAll(/data: (\w+)/g)) if (!arrivals.has(match[1]!)) arrivals.set(match[1]!, Date.now());
      if (text.endsWith("0\r\n\r\n")) {
        socket.destroy();
        resolve({ text, arrivals, started });
      }
    });
    socket.on("error", reject);
    socket.write("GET / HTTP/1.1\r\nhost: gateway\r\n\r\n");
  });
}

describe("writeStream", () => {
  it("sends events yielded in the same tick (one upstream read) whole and in order, then ends the stream", async () => {
    const port = await serve(async function* () {
      for (const name of ["one", "two", "three", "four", "five"]) yield { data: name };
    });
    const { text } = await read(port);
    expect([...text.matchAll(/data: (\w+)/g)].map((match) => match[1])).toEqual(["one", "two", "three", "four", "five"]);
    expect(text).toMatch(/^HTTP\/1.1 200 OK\r\n[\s\S]*content-type: text\/event-stream/i);
  });

  it("sends the first event with the headers before the events after it are even produced", async () => {
    let writtenBeforeSecond = "";
    const port = await serve(async function* () {
      yield { data: "first" };
      // Same tick, no await: as when one upstream read holds many events.
      writtenBeforeSecond = written;
      yield { data: "second" };
    });
    await read(port);
    expect(writtenBeforeSecond).toMatch(/^HTTP\/1.1 200 OK\r\n[\s\S]*\r\n\r\n[0-9a-f]+\r\ndata: first\n\n\r\n$/);
  });

  it("never holds an event back for a later one: the first leaves before the upstream's next read", async () => {
    const port = await serve(async function* () {
      yield { data: "first" };
      await new Promise((resolve) => setTimeout(resolve, 400));
      yield { data: "second" };
    });
    const { arrivals, started } = await read(port);
    expect(arrivals.get("first")! - started).toBeLessThan(250);
    expect(arrivals.get("second")! - arrivals.get("first")!).toBeGreaterThanOrEqual(300);
  });
});

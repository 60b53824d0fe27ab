import { type Server, createServer } from "node:http";
import { type AddressInfo, connect } from "node:net";
import type { SseEvent } from "@gateway/provider-adapters";
import { afterEach, describe, expect, it } from "vitest";
import { writeStream } from "../src/write-pipeline-response.js";

let server: Server | null = null;
afterEach(async () => {
  server?.closeAllConnections();
  await new Promise<void>((resolve) => (server === null ? resolve() : server.close(() => resolve())));
  server = null;
});

/** Serves `events` with writeStream; returns the port. */
async function serve(events: () => AsyncIterable<SseEvent>) {
  server = createServer((_request, response) => {
    void writeStream(response, { kind: "stream", status: 200, headers: { "x-request-id": "req_test" }, events: events() }, new AbortController());
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

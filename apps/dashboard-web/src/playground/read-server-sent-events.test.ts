import { describe, expect, it } from "vitest";
import { readServerSentEvents, type ServerSentEvent } from "./read-server-sent-events.js";

function streamOf(chunks: string[]): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  return new ReadableStream({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(encoder.encode(chunk));
      controller.close();
    },
  });
}

async function collect(chunks: string[]): Promise<ServerSentEvent[]> {
  const events: ServerSentEvent[] = [];
  for await (const event of readServerSentEvents(streamOf(chunks))) events.push(event);
  return events;
}

describe("readServerSentEvents", () => {
  it("parses data frames split anywhere, including inside a multi-byte character", async () => {
    const text = 'data: {"a":"é"}\n\ndata: [DONE]\n\n';
    const bytes = new TextEncoder().encode(text);
    const events: ServerSentEvent[] = [];
    const split = new ReadableStream<Uint8Array>({
      start(controller) {
        for (const byte of bytes) controller.enqueue(new Uint8Array([byte]));
        controller.close();
      },
    });
    for await (const event of readServerSentEvents(split)) events.push(event);
    expect(events).toEqual([
      { event: "message", data: '{"a":"é"}' },
      { event: "message", data: "[DONE]" },
    ]);
  });

  it("reads named events, multi-line data, comments and CRLF or CR line ends", async () => {
    expect(await collect([": keep-alive\r\n", "event: error\r\ndata: line one\r\ndata: line two\r\n\r\n", "data: x\r", "\rdata: last"])).toEqual([
      { event: "error", data: "line one\nline two" },
      { event: "message", data: "x" },
      { event: "message", data: "last" },
    ]);
  });

  it("ignores frames without data", async () => {
    expect(await collect(["event: ping\n\n", "id: 3\n\n"])).toEqual([]);
  });
});

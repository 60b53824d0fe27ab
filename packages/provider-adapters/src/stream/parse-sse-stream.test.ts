import { describe, expect, it } from "vitest";
import { byteChunks, collect, fromArray } from "../formats/__fixtures__/golden.js";
import { parseSseStream } from "./parse-sse-stream.js";

const encoder = new TextEncoder();

async function parse(text: string, chunkSize = 1024) {
  return collect(parseSseStream(byteChunks(text, chunkSize)));
}

describe("parseSseStream", () => {
  it("reads event names, data and ids", async () => {
    const events = await parse("event: message_start\nid: 7\ndata: {\"a\":1}\n\ndata: [DONE]\n\n");
    expect(events).toEqual([
      { event: "message_start", id: "7", data: '{"a":1}' },
      { id: "7", data: "[DONE]" },
    ]);
  });

  it("joins multi-line data with \\n and strips only one leading space", async () => {
    const events = await parse("data: first\ndata:  second\ndata:third\ndata\n\n");
    expect(events).toEqual([{ data: "first\n second\nthird\n" }]);
  });

  it("ignores comments, retry and unknown fields, and events without data", async () => {
    const events = await parse(": keep-alive\nretry: 1000\nfoo: bar\n\nevent: ping\n\n: another\ndata: x\n\n");
    expect(events).toEqual([{ data: "x" }]);
  });

  it("accepts CRLF, LF and CR line ends, mixed", async () => {
    const events = await parse("event: a\r\ndata: 1\r\n\r\nevent: b\rdata: 2\r\rdata: 3\n\n");
    expect(events).toEqual([
      { event: "a", data: "1" },
      { event: "b", data: "2" },
      { data: "3" },
    ]);
  });

  it("handles chunk boundaries anywhere, including inside multi-byte UTF-8 characters and CRLF pairs", async () => {
    const text = "event: message\r\ndata: héllo 👋 — ✓\r\n\r\ndata: second\r\n\r\n";
    const expected = [{ event: "message", data: "héllo 👋 — ✓" }, { data: "second" }];
    for (const size of [1, 2, 3, 5, 7]) {
      expect(await parse(text, size)).toEqual(expected);
    }
  });

  it("does not treat a CR at the end of a chunk followed by LF as two line ends", async () => {
    const chunks = [encoder.encode("data: a\r"), encoder.encode("\ndata: b\r"), encoder.encode("\n\r\n")];
    expect(await collect(parseSseStream(fromArray(chunks)))).toEqual([{ data: "a\nb" }]);
  });

  it("drops a leading BOM and an unterminated final event", async () => {
    expect(await parse("\uFEFFdata: x\n\ndata: never finished")).toEqual([{ data: "x" }]);
  });

  it("keeps the last event id for later events, ignoring ids that contain NULL", async () => {
    const events = await parse("id: 1\ndata: a\n\ndata: b\n\nid: bad\u0000\ndata: c\n\nid\ndata: d\n\n");
    expect(events.map((event) => event.id)).toEqual(["1", "1", "1", undefined]);
  });

  it("keeps empty data lines", async () => {
    expect(await parse("data:\n\n")).toEqual([{ data: "" }]);
  });
});

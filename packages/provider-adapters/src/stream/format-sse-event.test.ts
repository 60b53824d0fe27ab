import { describe, expect, it } from "vitest";
import { byteChunks, collect } from "../formats/__fixtures__/golden.js";
import { formatSseEvent } from "./format-sse-event.js";
import { parseSseStream } from "./parse-sse-stream.js";

describe("formatSseEvent", () => {
  it("writes event, id and data lines followed by a blank line", () => {
    expect(formatSseEvent({ event: "message_stop", data: '{"type":"message_stop"}' })).toBe(
      'event: message_stop\ndata: {"type":"message_stop"}\n\n',
    );
    expect(formatSseEvent({ data: "[DONE]", id: "9" })).toBe("id: 9\ndata: [DONE]\n\n");
  });

  it("splits multi-line data so that parsing gives the same event back", async () => {
    const event = { event: "note", data: "line one\nline two\r\nline three" };
    const text = formatSseEvent(event);
    expect(text).toBe("event: note\ndata: line one\ndata: line two\ndata: line three\n\n");
    expect(await collect(parseSseStream(byteChunks(text, 3)))).toEqual([{ event: "note", data: "line one\nline two\nline three" }]);
  });

  it("refuses event names or ids with line breaks", () => {
    expect(() => formatSseEvent({ event: "a\nb", data: "" })).toThrow(TypeError);
    expect(() => formatSseEvent({ id: "1\r", data: "" })).toThrow(TypeError);
  });
});

import type { SseEvent } from "./sse-event.js";

/**
 * Parses a byte stream as Server-Sent Events, per the WHATWG event-stream rules: `event:`,
 * `data:` (several lines joined with "\n"), `id:` (kept for later events, ignored when it
 * contains NULL), `retry:` and comment lines (`:`) ignored, one leading space after the colon
 * stripped, CRLF / LF / CR line ends, a leading BOM ignored. Chunk boundaries may fall anywhere,
 * including inside a multi-byte UTF-8 character or between CR and LF. An event without
 * `data:` lines is not dispatched, nor is an unterminated event at the end of the stream.
 */
export async function* parseSseStream(chunks: AsyncIterable<Uint8Array>): AsyncIterable<SseEvent> {
  const decoder = new TextDecoder("utf-8", { ignoreBOM: false });
  const parser = createSseLineParser();
  for await (const chunk of chunks) {
    yield* parser.push(decoder.decode(chunk, { stream: true }));
  }
  yield* parser.push(decoder.decode());
}

interface SseLineParser {
  push(text: string): SseEvent[];
}

function createSseLineParser(): SseLineParser {
  let pending = "";
  let skipLineFeed = false;
  let eventType = "";
  let data: string[] = [];
  let lastEventId = "";

  function processLine(line: string, events: SseEvent[]): void {
    if (line === "") {
      if (data.length > 0) {
        const event: SseEvent = { data: data.join("\n") };
        if (eventType !== "") event.event = eventType;
        if (lastEventId !== "") event.id = lastEventId;
        events.push(event);
      }
      eventType = "";
      data = [];
      return;
    }
    if (line.startsWith(":")) return;
    const colon = line.indexOf(":");
    const field = colon === -1 ? line : line.slice(0, colon);
    let value = colon === -1 ? "" : line.slice(colon + 1);
    if (value.startsWith(" ")) value = value.slice(1);
    switch (field) {
      case "event":
        eventType = value;
        break;
      case "data":
        data.push(value);
        break;
      case "id":
        if (!value.includes("\u0000")) lastEventId = value;
        break;
      default:
        break; // `retry` and unknown fields are ignored
    }
  }

  return {
    push(text) {
      const events: SseEvent[] = [];
      let start = 0;
      if (skipLineFeed && text.startsWith("\n")) start = 1;
      if (text.length > 0) skipLineFeed = false;
      for (let position = start; position < text.length; position += 1) {
        const character = text.charCodeAt(position);
        if (character !== 10 && character !== 13) continue;
        processLine(pending + text.slice(start, position), events);
        pending = "";
        if (character === 13) {
          if (position + 1 === text.length) skipLineFeed = true;
          else if (text.charCodeAt(position + 1) === 10) position += 1;
        }
        start = position + 1;
      }
      pending += text.slice(start);
      return events;
    },
  };
}

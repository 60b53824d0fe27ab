/** One server-sent event: its `event` name (default `message`) and its `data` lines joined. */
export interface ServerSentEvent {
  event: string;
  data: string;
}

/**
 * Parses a `text/event-stream` body into events as bytes arrive (frames split anywhere, `\n`,
 * `\r\n` or `\r` line ends, comment lines, multi-line data), per the HTML standard's rules.
 */
export async function* readServerSentEvents(body: ReadableStream<Uint8Array>): AsyncGenerator<ServerSentEvent> {
  const decoder = new TextDecoder();
  const reader = body.getReader();
  let buffer = "";
  let event = "";
  let data: string[] = [];
  const take = (line: string): ServerSentEvent | null => {
    if (line === "") {
      const complete = data.length > 0 ? { event: event || "message", data: data.join("\n") } : null;
      event = "";
      data = [];
      return complete;
    }
    if (line.startsWith(":")) return null;
    const colon = line.indexOf(":");
    const field = colon === -1 ? line : line.slice(0, colon);
    let value = colon === -1 ? "" : line.slice(colon + 1);
    if (value.startsWith(" ")) value = value.slice(1);
    if (field === "event") event = value;
    else if (field === "data") data.push(value);
    return null;
  };
  try {
    for (;;) {
      const { done, value } = await reader.read();
      buffer += done ? decoder.decode() : decoder.decode(value, { stream: true });
      // A trailing "\r" may be the first half of "\r\n": keep it until the next chunk.
      const lines = buffer.split(/\r\n|\n|\r(?!$)/);
      buffer = done ? "" : lines.pop()!;
      if (done && lines.at(-1) === "") lines.pop();
      for (const line of lines) {
        const complete = take(line.endsWith("\r") ? line.slice(0, -1) : line);
        if (complete) yield complete;
      }
      if (done) {
        const last = take("");
        if (last) yield last;
        return;
      }
    }
  } finally {
    reader.releaseLock();
  }
}

import { EventStreamCodec } from "@smithy/eventstream-codec";
import type { Message } from "@smithy/eventstream-codec";
import { fromUtf8, toUtf8 } from "@smithy/util-utf8";

/** One decoded `application/vnd.amazon.eventstream` message: its string headers and JSON payload text. */
export interface EventStreamMessage {
  headers: Record<string, string>;
  body: string;
}

/** The largest message accepted (Bedrock's events are far smaller; a larger length is a corrupt prelude). */
const maxMessageBytes = 16 * 1024 * 1024;
const preludeBytes = 12;
const codec = new EventStreamCodec(toUtf8, fromUtf8);

/** A framing or checksum failure of the binary event stream. */
export class EventStreamFramingError extends Error {
  /** What is wrong (never the bytes themselves). */
  readonly problem: string;
  /** True when the body ended inside a message (a cut stream) rather than a corrupt one. */
  readonly truncated: boolean;
  constructor(problem: string, options: { cause?: unknown; truncated?: boolean } = {}) {
    super(`The binary event stream is corrupt: ${problem}.`, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = "EventStreamFramingError";
    this.problem = problem;
    this.truncated = options.truncated === true;
  }
}

/**
 * Splits a body of `application/vnd.amazon.eventstream` messages (each: total length, headers
 * length, prelude CRC32, headers, payload, message CRC32) into messages as their bytes arrive,
 * decoding each with `@smithy/eventstream-codec` (both checksums checked). A checksum mismatch,
 * an impossible length or bytes left over at the end throw {@link EventStreamFramingError}.
 */
export async function* readEventStreamMessages(body: AsyncIterable<Uint8Array>): AsyncGenerator<EventStreamMessage> {
  let buffered: Uint8Array = new Uint8Array(0);
  for await (const chunk of body) {
    buffered = buffered.length === 0 ? chunk : concat(buffered, chunk);
    while (buffered.length >= preludeBytes) {
      const totalLength = new DataView(buffered.buffer, buffered.byteOffset, buffered.byteLength).getUint32(0, false);
      if (totalLength < 16 || totalLength > maxMessageBytes) throw new EventStreamFramingError(`a message length of ${totalLength} bytes`);
      if (buffered.length < totalLength) break;
      yield toMessage(buffered.subarray(0, totalLength));
      buffered = buffered.subarray(totalLength);
    }
  }
  if (buffered.length > 0) throw new EventStreamFramingError("the stream ended inside a message", { truncated: true });
}

function toMessage(bytes: Uint8Array): EventStreamMessage {
  let message: Message;
  try {
    message = codec.decode(bytes);
  } catch (error) {
    throw new EventStreamFramingError("a checksum or header does not match", { cause: error });
  }
  const headers: Record<string, string> = {};
  for (const [name, header] of Object.entries(message.headers)) {
    if (header.type === "string") headers[name] = header.value;
  }
  return { headers, body: toUtf8(message.body) };
}

function concat(first: Uint8Array, second: Uint8Array): Uint8Array {
  const joined = new Uint8Array(first.length + second.length);
  joined.set(first, 0);
  joined.set(second, first.length);
  return joined;
}

import { redactErrorFrame } from "./redact-error-frame.js";
import type { SseEvent } from "./sse-event.js";
import type { StreamDecoder, StreamFrame } from "./stream-part.js";

/**
 * Runs a decoder over upstream events, yielding one frame per event as soon as it arrived.
 * After the frame that ends the answer, whatever the upstream still sends is read and dropped
 * until it closes (so its keep-alive connection can be reused), except after an event the
 * gateway found invalid: then reading stops at once (which closes the upstream request). When
 * the upstream ends first, the decoder's closing frame (completion or truncation) comes last. A
 * failing upstream (read error, timeout) throws to the consumer, which decides how the caller
 * learns of it. The provider's own error event is redacted (`secrets`: the connection's credential)
 * before anyone sees it: it may quote the credential.
 */
export async function* decodeSseStream(
  events: AsyncIterable<SseEvent>,
  decoder: Pick<StreamDecoder, "decode" | "finish" | "done">,
  options: { secrets?: readonly (string | null | undefined)[] } = {},
): AsyncGenerator<StreamFrame> {
  const secrets = options.secrets ?? [];
  for await (const event of events) {
    if (decoder.done) continue;
    const frame = redactErrorFrame(decoder.decode(event), secrets);
    yield frame;
    if (decoder.done && frame.source === null) return;
  }
  const last = decoder.finish();
  if (last !== null) yield last;
}

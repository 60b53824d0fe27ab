import { GatewayError, redactSecrets, redactSecretsInValue } from "@gateway/errors";
import type { StreamFrame } from "./stream-part.js";

/**
 * A frame carrying the provider's own error event, with the connection's credential (and echoes
 * of it, key shapes, bearer tokens) removed from the event's bytes, its parsed payload and the
 * error's message: the event passes through to a caller of the same format, the message is
 * rendered to other callers and logged. Other frames are returned unchanged.
 */
export function redactErrorFrame(frame: StreamFrame, secrets: readonly (string | null | undefined)[]): StreamFrame {
  if (!frame.parts.some((part) => part.type === "error")) return frame;
  const payload = frame.payload === null ? null : redactSecretsInValue(frame.payload, secrets);
  const source =
    frame.source === null ? null : { ...frame.source, data: payload === null ? redactSecrets(frame.source.data, secrets) : JSON.stringify(payload) };
  const parts = frame.parts.map((part) => {
    if (part.type !== "error") return part;
    const { error } = part;
    const message = redactSecrets(error.message, secrets);
    if (message === error.message) return part;
    const redacted = new GatewayError(error.code, {
      message,
      param: error.param,
      details: error.details,
      ...(error.type === undefined ? {} : { type: error.type }),
      ...(error.retryAfter === undefined ? {} : { retryAfter: error.retryAfter }),
      ...(error.retryable === undefined ? {} : { retryable: error.retryable }),
    });
    return { ...part, error: redacted };
  });
  return { ...frame, source, payload, parts };
}

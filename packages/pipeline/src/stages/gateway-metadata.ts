import { GatewayError } from "@gateway/errors";

/** Bounds of `X-Gateway-Metadata`. */
export const gatewayMetadataBounds = {
  /** Bytes of the header value (UTF-8). */
  maxHeaderBytes: 4096,
  maxKeys: 16,
  /** Characters of a value. */
  maxValueLength: 256,
} as const;

const metadataKeyPattern = /^[A-Za-z0-9_.-]{1,64}$/;

/** Metadata of a call without any (one shared frozen object). */
export const noMetadata: Readonly<Record<string, string>> = Object.freeze({});

function invalid(message: string): GatewayError {
  return new GatewayError("invalid_request", { message: `X-Gateway-Metadata ${message}`, param: "X-Gateway-Metadata" });
}

/**
 * Parses `X-Gateway-Metadata`: a JSON object of string values, at most 16 keys of
 * `[A-Za-z0-9_.-]{1,64}`, values of at most 256 characters, the header at most 4096 bytes.
 * Absent or empty: {@link noMetadata}. Anything else throws 400 `invalid_request` naming the header.
 * Recorded with the call; never forwarded upstream.
 */
export function parseGatewayMetadata(value: string | undefined): Readonly<Record<string, string>> {
  if (value === undefined || value === "") return noMetadata;
  // A header is Latin-1 on the wire: its length in characters bounds its bytes from below.
  if (value.length > gatewayMetadataBounds.maxHeaderBytes || Buffer.byteLength(value, "utf8") > gatewayMetadataBounds.maxHeaderBytes) {
    throw invalid(`must be at most ${gatewayMetadataBounds.maxHeaderBytes} bytes.`);
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(value);
  } catch {
    throw invalid("must be a JSON object of string values.");
  }
  if (parsed === null || typeof parsed !== "object" || Array.isArray(parsed)) throw invalid("must be a JSON object of string values.");
  const keys = Object.keys(parsed);
  if (keys.length > gatewayMetadataBounds.maxKeys) throw invalid(`must have at most ${gatewayMetadataBounds.maxKeys} keys.`);
  if (keys.length === 0) return noMetadata;
  const metadata: Record<string, string> = {};
  for (const key of keys) {
    // `__proto__` would set the prototype of the merged objects instead of a key.
    if (!metadataKeyPattern.test(key) || key === "__proto__") throw invalid("keys must be 1 to 64 letters, digits, '_', '.' or '-'.");
    const item = (parsed as Record<string, unknown>)[key];
    if (typeof item !== "string") throw invalid(`values must be strings (key "${key}").`);
    if (item.length > gatewayMetadataBounds.maxValueLength) throw invalid(`values must be at most ${gatewayMetadataBounds.maxValueLength} characters (key "${key}").`);
    metadata[key] = item;
  }
  return metadata;
}

/**
 * The metadata recorded with a call: the caller's header merged over the key's default metadata.
 * Allocates only when both have keys.
 */
export function mergeGatewayMetadata(defaults: Readonly<Record<string, string>> | undefined, caller: Readonly<Record<string, string>>): Readonly<Record<string, string>> {
  if (defaults === undefined || defaults === noMetadata) return caller;
  if (caller === noMetadata) return defaults;
  return Object.assign({}, defaults, caller);
}

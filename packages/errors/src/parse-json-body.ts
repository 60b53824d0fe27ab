import { GatewayError } from "./gateway-error.js";

/**
 * The deepest nesting of objects and arrays a request body may have (default of
 * {@link parseJsonBody}). Real requests stay far below it (a tool's JSON Schema is rarely 20
 * deep); it keeps `JSON.parse` and every recursive walk of the body (validation, translation,
 * guardrails, token estimates) far from the stack's limit.
 */
export const defaultJsonMaxDepth = 128;

/** Options of {@link parseJsonBody}. */
export interface ParseJsonBodyOptions {
  /** Deepest nesting of objects and arrays accepted (default {@link defaultJsonMaxDepth}). */
  maxDepth?: number;
}

const quote = 0x22;
const backslash = 0x5c;
const letterU = 0x75;
const openBrace = 0x7b;
const closeBrace = 0x7d;
const openBracket = 0x5b;
const closeBracket = 0x5d;

const decoder = new TextDecoder("utf-8");

/**
 * Parses an untrusted JSON request body (UTF-8 bytes) for every HTTP surface. Before
 * `JSON.parse`, one linear pass over the bytes (it only tracks strings and escapes, and stops at
 * the first problem) refuses nesting deeper than `maxDepth` and `\u` escapes that leave a UTF-16
 * surrogate unpaired, in values and keys alike (a string no database or provider accepts). Raw
 * bytes cannot produce a lone surrogate: invalid UTF-8 decodes to U+FFFD.
 *
 * Throws `invalid_request` (400) for an empty body, a body nested too deep (`details.max_depth`),
 * an unpaired surrogate, or text that is not JSON. The size limit is the reader's: it is
 * checked while the bytes arrive, before this runs.
 */
export function parseJsonBody(bytes: Uint8Array, options: ParseJsonBodyOptions = {}): unknown {
  const maxDepth = options.maxDepth ?? defaultJsonMaxDepth;
  scanJsonBytes(bytes, maxDepth);
  const text = decoder.decode(bytes);
  if (text.trim() === "") throw new GatewayError("invalid_request", { message: "The request body is empty; send a JSON object." });
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    throw new GatewayError("invalid_request", { message: "The request body is not valid JSON.", cause: error });
  }
}

/** One pass over the bytes: depth of `{`/`[` outside strings, and the surrogates of `\u` escapes inside them. */
function scanJsonBytes(bytes: Uint8Array, maxDepth: number): void {
  const length = bytes.length;
  let depth = 0;
  let inString = false;
  // Inside strings, jump to the next quote or backslash (native search). Each position is
  // searched again only once passed, so the whole scan stays linear.
  let nextQuote = -1;
  let nextBackslash = -1;
  for (let index = 0; index < length; index++) {
    if (inString) {
      if (nextQuote < index) nextQuote = positionOf(bytes, quote, index);
      if (nextBackslash < index) nextBackslash = positionOf(bytes, backslash, index);
      index = nextQuote < nextBackslash ? nextQuote : nextBackslash;
      if (index >= length) break;
    }
    const byte = bytes[index]!;
    if (inString) {
      if (byte === quote) inString = false;
      else if (byte === backslash) {
        if (bytes[index + 1] !== letterU) {
          index += 1;
          continue;
        }
        const unit = readHexUnit(bytes, index + 2);
        // A malformed escape is JSON.parse's to refuse.
        if (unit < 0) {
          index += 1;
          continue;
        }
        if (unit >= 0xdc00 && unit <= 0xdfff) throw unpairedSurrogate();
        if (unit >= 0xd800 && unit <= 0xdbff) {
          const next = bytes[index + 6] === backslash && bytes[index + 7] === letterU ? readHexUnit(bytes, index + 8) : -1;
          if (next < 0xdc00 || next > 0xdfff) throw unpairedSurrogate();
          index += 11;
          continue;
        }
        index += 5;
      }
    } else if (byte === quote) inString = true;
    else if (byte === openBrace || byte === openBracket) {
      depth += 1;
      if (depth > maxDepth) {
        throw new GatewayError("invalid_request", {
          message: `The request body is nested too deeply (more than ${maxDepth} levels of objects and arrays).`,
          details: { max_depth: maxDepth },
        });
      }
    } else if (byte === closeBrace || byte === closeBracket) depth -= 1;
  }
}

/** Index of the next `byte` from `start`, or the length when there is none. */
function positionOf(bytes: Uint8Array, byte: number, start: number): number {
  const found = bytes.indexOf(byte, start);
  return found === -1 ? bytes.length : found;
}

/** The 16-bit value of four hex digits at `start`, or -1 when they are not four hex digits. */
function readHexUnit(bytes: Uint8Array, start: number): number {
  if (start + 4 > bytes.length) return -1;
  let value = 0;
  for (let index = start; index < start + 4; index++) {
    const digit = hexValue(bytes[index]!);
    if (digit < 0) return -1;
    value = value * 16 + digit;
  }
  return value;
}

function hexValue(byte: number): number {
  if (byte >= 0x30 && byte <= 0x39) return byte - 0x30;
  if (byte >= 0x41 && byte <= 0x46) return byte - 0x41 + 10;
  if (byte >= 0x61 && byte <= 0x66) return byte - 0x61 + 10;
  return -1;
}

function unpairedSurrogate(): GatewayError {
  return new GatewayError("invalid_request", {
    message: "The request body contains an unpaired UTF-16 surrogate escape (\\uD800-\\uDFFF); send well-formed Unicode text.",
  });
}

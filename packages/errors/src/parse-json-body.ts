import { GatewayError } from "./gateway-error.js";

/**
 * The deepest nesting of objects and arrays a request body may have (default of
 * {@link parseJsonBody}). Real requests stay far below it (a tool's JSON Schema is rarely 20
 * deep); it keeps `JSON.parse` and every recursive walk of the body (validation, translation,
 * guardrails, token estimates) far from the stack's limit.
 */
export const defaultJsonMaxDepth = 128;

/**
 * The most values a request body may hold (default of {@link parseJsonBody}): every object,
 * array, string, number, boolean and null counts once (object keys do not). `JSON.parse` and
 * the walks after it (validation, translation, guardrails) cost about 0.1-0.2 us per value, so
 * a body at the bound is read in tens of milliseconds, not seconds. Real requests stay far below
 * it: a long chat with tools holds a few thousand values, an embeddings request with token-id
 * arrays up to the providers' 300,000 tokens per request about as many.
 */
export const defaultJsonMaxValues = 300_000;

/**
 * The most keys one object of a request body may have (default of {@link parseJsonBody}).
 * Objects with many keys are what costs most to read (V8 turns them into dictionaries, and
 * schema validators copy them key by key); real ones hold a few dozen (a tool's `properties`,
 * `metadata`: 16 at OpenAI, `logit_bias`: 300).
 */
export const defaultJsonMaxObjectKeys = 1_000;

/**
 * The most elements one array of a request body may have (default of {@link parseJsonBody}):
 * room for the longest real arrays (an embeddings request's token ids, up to 300,000 per
 * request; thousands of messages or tools), bounded again by {@link defaultJsonMaxValues} overall.
 */
export const defaultJsonMaxArrayElements = 300_000;

/** Options of {@link parseJsonBody}. */
export interface ParseJsonBodyOptions {
  /** Deepest nesting of objects and arrays accepted (default {@link defaultJsonMaxDepth}). */
  maxDepth?: number;
  /** Most values in the whole body (default {@link defaultJsonMaxValues}). */
  maxValues?: number;
  /** Most keys in one object (default {@link defaultJsonMaxObjectKeys}). */
  maxObjectKeys?: number;
  /** Most elements in one array (default {@link defaultJsonMaxArrayElements}). */
  maxArrayElements?: number;
}

/** The bounds of one scan (resolved options). */
interface JsonBounds {
  maxDepth: number;
  maxValues: number;
  maxObjectKeys: number;
  maxArrayElements: number;
}

const quote = 0x22;
const backslash = 0x5c;
const letterU = 0x75;
const openBrace = 0x7b;
const closeBrace = 0x7d;
const openBracket = 0x5b;
const closeBracket = 0x5d;
const comma = 0x2c;
const space = 0x20;
const tab = 0x09;
const lineFeed = 0x0a;
const carriageReturn = 0x0d;

const decoder = new TextDecoder("utf-8");

/**
 * Bytes that continue a number or a literal (`0-9`, letters, `-`, `+`, `.`): outside strings the
 * scan passes them with one table look-up (a body of token ids is mostly digits).
 */
const valueByte = new Uint8Array(256);
for (const [first, last] of [[0x30, 0x39], [0x41, 0x5a], [0x61, 0x7a]] as const) valueByte.fill(1, first, last + 1);
for (const byte of [0x2d, 0x2b, 0x2e]) valueByte[byte] = 1;

/**
 * Parses an untrusted JSON request body (UTF-8 bytes) for every HTTP surface. Before
 * `JSON.parse`, one linear pass over the bytes (it only tracks strings and escapes, and stops at
 * the first problem) refuses nesting deeper than `maxDepth`, a body wider than its bounds (more
 * than `maxValues` values in all, an object with more than `maxObjectKeys` keys, an array with
 * more than `maxArrayElements` elements), and `\u` escapes that leave a UTF-16 surrogate
 * unpaired, in values and keys alike (a string no database or provider accepts). Raw bytes
 * cannot produce a lone surrogate: invalid UTF-8 decodes to U+FFFD.
 *
 * Throws `invalid_request` (400) for an empty body, a body nested too deep (`details.max_depth`),
 * too wide (`details.max_values`, `details.max_object_keys` or `details.max_array_elements`),
 * an unpaired surrogate, or text that is not JSON. The size limit is the reader's: it is
 * checked while the bytes arrive, before this runs.
 */
export function parseJsonBody(bytes: Uint8Array, options: ParseJsonBodyOptions = {}): unknown {
  scanJsonBytes(bytes, {
    maxDepth: options.maxDepth ?? defaultJsonMaxDepth,
    maxValues: options.maxValues ?? defaultJsonMaxValues,
    maxObjectKeys: options.maxObjectKeys ?? defaultJsonMaxObjectKeys,
    maxArrayElements: options.maxArrayElements ?? defaultJsonMaxArrayElements,
  });
  const text = decoder.decode(bytes);
  if (text.trim() === "") throw new GatewayError("invalid_request", { message: "The request body is empty; send a JSON object." });
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    throw new GatewayError("invalid_request", { message: "The request body is not valid JSON.", cause: error });
  }
}

/**
 * One pass over the bytes: outside strings, the depth of `{`/`[` and the members of each open
 * object or array (its commas, plus its first value), counted in one slot per level; inside
 * strings, the surrogates of `\u` escapes.
 */
function scanJsonBytes(bytes: Uint8Array, bounds: JsonBounds): void {
  const { maxDepth, maxValues, maxObjectKeys, maxArrayElements } = bounds;
  const length = bytes.length;
  // Members of the open container at each level, and whether it is an object (1) or an array (0).
  const members = new Int32Array(maxDepth + 1);
  const isObject = new Uint8Array(maxDepth + 1);
  let depth = 0;
  let values = 0;
  // The next value opens the current level (the root, or a container just opened).
  let awaitingFirst = true;
  let inString = false;
  // Inside strings, go to the next quote or backslash: byte by byte over the first 64 bytes
  // (most strings are short, and a native call costs more than that), then by native search,
  // each position searched again only once passed, so the whole scan stays linear.
  let nextQuote = -1;
  let nextBackslash = -1;
  for (let index = 0; index < length; index++) {
    if (inString) {
      const shortEnd = index + 64 < length ? index + 64 : length;
      let stop = index;
      while (stop < shortEnd) {
        const byte = bytes[stop]!;
        if (byte === quote || byte === backslash) break;
        stop += 1;
      }
      if (stop === shortEnd && stop < length) {
        if (nextQuote < stop) nextQuote = positionOf(bytes, quote, stop);
        if (nextBackslash < stop) nextBackslash = positionOf(bytes, backslash, stop);
        stop = nextQuote < nextBackslash ? nextQuote : nextBackslash;
      }
      index = stop;
      if (index >= length) break;
    }
    const byte = bytes[index]!;
    if (valueByte[byte] === 1 && !awaitingFirst && !inString) continue;
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
      continue;
    }
    if (byte === space || byte === lineFeed || byte === carriageReturn || byte === tab) continue;
    if (awaitingFirst) {
      awaitingFirst = false;
      if (byte !== closeBrace && byte !== closeBracket) {
        members[depth] = 1;
        values += 1;
        if (values > maxValues) throw tooWide("values", maxValues);
      }
    }
    if (byte === quote) inString = true;
    else if (byte === comma) {
      const count = (members[depth] = members[depth]! + 1);
      values += 1;
      if (values > maxValues) throw tooWide("values", maxValues);
      if (isObject[depth] === 1 ? count > maxObjectKeys : count > maxArrayElements) {
        throw isObject[depth] === 1 ? tooWide("object_keys", maxObjectKeys) : tooWide("array_elements", maxArrayElements);
      }
    } else if (byte === openBrace || byte === openBracket) {
      depth += 1;
      if (depth > maxDepth) {
        throw new GatewayError("invalid_request", {
          message: `The request body is nested too deeply (more than ${maxDepth} levels of objects and arrays).`,
          details: { max_depth: maxDepth },
        });
      }
      members[depth] = 0;
      isObject[depth] = byte === openBrace ? 1 : 0;
      awaitingFirst = true;
    } else if (byte === closeBrace || byte === closeBracket) {
      // Unbalanced closers are JSON.parse's to refuse.
      if (depth > 0) depth -= 1;
    }
  }
}

const wideMessages = {
  values: (bound: number) => `The request body holds more than ${bound} values (objects, arrays, strings, numbers, booleans and nulls).`,
  object_keys: (bound: number) => `An object in the request body has more than ${bound} keys.`,
  array_elements: (bound: number) => `An array in the request body has more than ${bound} elements.`,
};

function tooWide(what: keyof typeof wideMessages, bound: number): GatewayError {
  return new GatewayError("invalid_request", { message: wideMessages[what](bound), details: { [`max_${what}`]: bound } });
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

import { describe, expect, it } from "vitest";
import { GatewayError, defaultJsonMaxDepth, fromHttpParserError, parseJsonBody } from "./index.js";

const bytes = (text: string) => new TextEncoder().encode(text);

function refusal(text: string, options?: { maxDepth?: number }): GatewayError {
  try {
    parseJsonBody(bytes(text), options);
  } catch (error) {
    if (GatewayError.isInstance(error)) return error;
    throw error;
  }
  throw new Error("the body was accepted");
}

describe("parseJsonBody", () => {
  it("parses JSON bytes, including nesting up to the bound and escaped brackets inside strings", () => {
    expect(parseJsonBody(bytes('{"a":[1,{"b":"x"}]}'))).toEqual({ a: [1, { b: "x" }] });
    const deepest = "[".repeat(defaultJsonMaxDepth) + "]".repeat(defaultJsonMaxDepth);
    expect(() => parseJsonBody(bytes(deepest))).not.toThrow();
    // Brackets and quotes inside strings (escaped or not) do not count.
    const text = JSON.stringify({ text: `${"[".repeat(500)} \\" ${"{".repeat(500)} "quoted"` });
    expect(parseJsonBody(bytes(text))).toEqual(JSON.parse(text));
  });

  it("refuses nesting deeper than the bound with 400 invalid_request naming the bound", () => {
    const error = refusal("[".repeat(defaultJsonMaxDepth + 1) + "]".repeat(defaultJsonMaxDepth + 1));
    expect(error.status).toBe(400);
    expect(error.code).toBe("invalid_request");
    expect(error.details).toEqual({ max_depth: defaultJsonMaxDepth });
    expect(refusal('{"a":{"b":{"c":1}}}', { maxDepth: 2 }).details).toEqual({ max_depth: 2 });
    // Mixed objects and arrays count alike.
    expect(refusal('{"a":[{"b":[1]}]}', { maxDepth: 3 }).message).toContain("nested too deeply");
  });

  it("refuses 5,000,000 levels before parsing (a stack overflow or a long stall otherwise)", () => {
    const deep = Buffer.alloc(10_000_000);
    deep.fill("[", 0, 5_000_000);
    deep.fill("]", 5_000_000);
    expect(() => parseJsonBody(deep)).toThrow(/nested too deeply/);
  });

  it("refuses unpaired surrogate escapes in values and keys, and accepts pairs", () => {
    for (const text of ['{"email":"\\ud800@x.com"}', '{"\\uDC00":1}', '["\\ud83d"]', '["\\ud83d\\ud83d"]', '["a\\udfffb"]', '["\\ud800\\u0041"]']) {
      const error = refusal(text);
      expect(error.code, text).toBe("invalid_request");
      expect(error.message).toContain("unpaired UTF-16 surrogate");
    }
    expect(parseJsonBody(bytes('{"\\ud83d\\ude00":"\\uD83D\\uDE00 \\u00e9 \\\\ud800"}'))).toEqual({ "\u{1F600}": "\u{1F600} é \\ud800" });
  });

  it("refuses an empty body and text that is not JSON", () => {
    expect(refusal("  \n").message).toContain("empty");
    expect(refusal('{"a":').message).toBe("The request body is not valid JSON.");
    expect(refusal('{"a":"\\u12"}').code).toBe("invalid_request");
  });
});

describe("fromHttpParserError", () => {
  it.each([
    ["ERR_HTTP_REQUEST_TIMEOUT", 408, "request_timeout"],
    ["HPE_HEADER_OVERFLOW", 431, "request_headers_too_large"],
    ["HPE_CHUNK_EXTENSIONS_OVERFLOW", 413, "request_too_large"],
    ["HPE_INVALID_CHUNK_SIZE", 400, "invalid_request"],
    ["HPE_LF_EXPECTED", 400, "invalid_request"],
    [undefined, 400, "invalid_request"],
  ])("%s answers %i %s", (code, status, errorCode) => {
    const error = fromHttpParserError(Object.assign(new Error("Parse Error: raw request bytes"), { code }));
    expect(error.status).toBe(status);
    expect(error.code).toBe(errorCode);
    expect(error.message).not.toContain("raw request bytes");
  });
});

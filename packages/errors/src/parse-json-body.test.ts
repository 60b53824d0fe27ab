import { describe, expect, it } from "vitest";
import {
  GatewayError,
  type ParseJsonBodyOptions,
  defaultJsonMaxArrayElements,
  defaultJsonMaxDepth,
  defaultJsonMaxObjectKeys,
  defaultJsonMaxValues,
  fromHttpParserError,
  parseJsonBody,
} from "./index.js";

const bytes = (text: string) => new TextEncoder().encode(text);

function refusal(text: string, options?: ParseJsonBodyOptions): GatewayError {
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

  it("refuses an object wider than its key bound, before parsing, naming the bound", () => {
    const keys = (count: number) => `{${Array.from({ length: count }, (_, index) => `"k${index}":${index}`).join(",")}}`;
    expect(Object.keys(parseJsonBody(bytes(keys(defaultJsonMaxObjectKeys))) as object)).toHaveLength(defaultJsonMaxObjectKeys);
    const error = refusal(keys(defaultJsonMaxObjectKeys + 1));
    expect(error.status).toBe(400);
    expect(error.code).toBe("invalid_request");
    expect(error.details).toEqual({ max_object_keys: defaultJsonMaxObjectKeys });
    expect(error.message).toContain(`more than ${defaultJsonMaxObjectKeys} keys`);
    // Nested objects count their own keys; commas inside strings and arrays do not count as keys.
    expect(parseJsonBody(bytes('{"a":"x,y,z","b":[1,2,3,4],"c":{"d":1,"e":2}}'), { maxObjectKeys: 3, maxArrayElements: 4 })).toEqual({
      a: "x,y,z",
      b: [1, 2, 3, 4],
      c: { d: 1, e: 2 },
    });
    expect(refusal('{"a":{"b":1,"c":2,"d":3}}', { maxObjectKeys: 2 }).details).toEqual({ max_object_keys: 2 });
  });

  it("refuses an array longer than its element bound, and a body with more values than its bound", () => {
    expect(refusal("[1,2,3]", { maxArrayElements: 2 }).details).toEqual({ max_array_elements: 2 });
    expect(parseJsonBody(bytes("[[1,2],[3,4]]"), { maxArrayElements: 2 })).toEqual([
      [1, 2],
      [3, 4],
    ]);
    // The outer array, 2 inner arrays and 4 numbers: 7 values (whitespace does not count).
    expect(parseJsonBody(bytes(" [ [1, 2] , [3, 4] ] "), { maxValues: 7 })).toEqual([
      [1, 2],
      [3, 4],
    ]);
    expect(refusal("[[1,2],[3,4]]", { maxValues: 6 }).details).toEqual({ max_values: 6 });
    // The object, its 3 member values and the empty object in the array: 5 (keys are not values).
    expect(parseJsonBody(bytes('{"a":{},"b":[],"c":[{}]}'), { maxValues: 5 })).toEqual({ a: {}, b: [], c: [{}] });
    expect(refusal('{"a":{},"b":[],"c":[{}]}', { maxValues: 4 }).message).toContain("more than 4 values");
    // The defaults: many small objects (the width of 500,000 keys spread out) pass the key bound but not the values bound.
    const spread = `[${Array.from({ length: defaultJsonMaxValues / 2 }, () => '{"a":1}').join(",")}]`;
    expect(refusal(spread).details).toEqual({ max_values: defaultJsonMaxValues });
    const tokens = `[${"1,".repeat(defaultJsonMaxArrayElements)}1]`;
    expect(refusal(tokens, { maxValues: defaultJsonMaxValues * 2 }).details).toEqual({ max_array_elements: defaultJsonMaxArrayElements });
  });

  it("refuses the 500,000-key params of the report (8 MB) in a single linear pass", () => {
    const wide = `{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{${Array.from({ length: 500_000 }, (_, index) => `"k${index}":${index}`).join(",")}}}`;
    expect(refusal(wide).details).toEqual({ max_object_keys: defaultJsonMaxObjectKeys });
  });

  it("refuses unpaired surrogate escapes in values and keys, and accepts pairs", () => {
    for (const text of ['{"email":"\\ud800@x.com"}', '{"\\uDC00":1}', '["\\ud83d"]', '["\\ud83d\\ud83d"]', '["a\\udfffb"]', '["\\ud800\\u0041"]']) {
      const error = refusal(text);
      expect(error.code, text).toBe("invalid_request");
      expect(error.message).toContain("unpaired UTF-16 surrogate");
    }
    expect(parseJsonBody(bytes('{"\\ud83d\\ude00":"\\uD83D\\uDE00 \\u00e9 \\\\ud800"}'))).toEqual({ "\u{1F600}": "\u{1F600} é \\ud800" });
    // Past the first 64 bytes of a long string too, and after long strings.
    const long = "a".repeat(100);
    expect(refusal(`["${long}\\ud800${long}"]`).message).toContain("unpaired UTF-16 surrogate");
    expect(refusal(`["${long}","${long}\\\\\\"${long}","\\udc00"]`).message).toContain("unpaired UTF-16 surrogate");
    expect(parseJsonBody(bytes(`{"${long}":"${long}\\"[{${long}","b":[${"1,".repeat(70)}1]}`), { maxArrayElements: 71 })).toEqual({ [long]: `${long}"[{${long}`, b: Array(71).fill(1) });
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

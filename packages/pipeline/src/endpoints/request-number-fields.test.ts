import { GatewayError } from "@gateway/errors";
import { describe, expect, it } from "vitest";
import { parseEmbeddingsBody } from "./embeddings-endpoint.js";
import { parseChatBody } from "./parse-chat-body.js";
import { parseResponsesBody } from "./parse-responses-body.js";
import { checkRequestNumberFields, maxRequestInteger, requestNumberFields } from "./request-number-fields.js";

const messages = [{ role: "user", content: "Hi" }];
// Parsed from text, as the HTTP layer does: 9007199254740993 is 2^53 + 1 (read as 2^53), 1e400 is Infinity.
const body = (fields: string, base = `"model":"m","messages":${JSON.stringify(messages)}`) => JSON.parse(`{${base},${fields}}`) as unknown;

function refusal(parse: () => unknown): GatewayError {
  try {
    parse();
  } catch (error) {
    if (GatewayError.isInstance(error)) return error;
    throw error;
  }
  throw new Error("expected the body to be refused");
}

describe("number fields of chat completions", () => {
  it.each([
    ['"max_tokens":9007199254740993', "max_tokens"],
    ['"max_tokens":1e300', "max_tokens"],
    ['"max_tokens":1e400', "max_tokens"],
    ['"max_tokens":2147483648', "max_tokens"],
    ['"max_tokens":0', "max_tokens"],
    ['"max_tokens":1.5', "max_tokens"],
    ['"max_completion_tokens":9007199254740993', "max_completion_tokens"],
    ['"max_completion_tokens":-1', "max_completion_tokens"],
    ['"n":1000', "n"],
    ['"temperature":2.5', "temperature"],
    ['"top_p":1e300', "top_p"],
    ['"presence_penalty":-3', "presence_penalty"],
    ['"frequency_penalty":3', "frequency_penalty"],
    ['"seed":1e300', "seed"],
    ['"seed":1e19', "seed"],
    ['"seed":1.5', "seed"],
    ['"top_logprobs":21', "top_logprobs"],
    ['"max_tokens":"100"', "max_tokens"],
    ['"logit_bias":{"50256":1e300}', "logit_bias.50256"],
    ['"logit_bias":{"__proto__":-101}', "logit_bias.__proto__"],
  ])("refuses %s with 400 invalid_request naming %s", (fields, param) => {
    const error = refusal(() => parseChatBody(body(fields), "openai"));
    expect(error.status).toBe(400);
    expect(error.code).toBe("invalid_request");
    expect(error.param).toBe(param);
  });

  it("accepts the documented ranges, null as absent, and passes unknown number fields through", () => {
    const request = body(
      `"max_tokens":${maxRequestInteger},"max_completion_tokens":1,"n":128,"temperature":2,"top_p":0,"presence_penalty":-2,"frequency_penalty":2,"seed":9223372036854775807,"top_logprobs":0,"logit_bias":{"50256":-100},"top_k":1e300,"stop":null`,
    );
    expect(parseChatBody(request, "openai")).toBe(request);
    expect(parseChatBody(body('"max_tokens":null,"temperature":null'), "openai")).toBeDefined();
  });
});

describe("number fields of messages and count_tokens", () => {
  it.each([
    ['"max_tokens":9007199254740993', "max_tokens"],
    ['"max_tokens":1e300', "max_tokens"],
    ['"temperature":1.5', "temperature"],
    ['"top_p":-0.1', "top_p"],
    ['"top_k":1e300', "top_k"],
    ['"top_k":-1', "top_k"],
    ['"thinking":{"type":"enabled","budget_tokens":1e300}', "thinking.budget_tokens"],
  ])("refuses %s naming %s", (fields, param) => {
    const error = refusal(() => parseChatBody(body(fields), "anthropic"));
    expect(error.code).toBe("invalid_request");
    expect(error.param).toBe(param);
  });

  it("accepts Anthropic's ranges", () => {
    const request = body('"max_tokens":64000,"temperature":1,"top_p":0.9,"top_k":40,"thinking":{"type":"enabled","budget_tokens":2048}');
    expect(parseChatBody(request, "anthropic")).toBe(request);
  });
});

describe("number fields of responses and embeddings", () => {
  it.each([
    ['"max_output_tokens":9007199254740993', "max_output_tokens"],
    ['"max_output_tokens":1e300', "max_output_tokens"],
    ['"max_tool_calls":-1', "max_tool_calls"],
    ['"temperature":1e300', "temperature"],
    ['"top_logprobs":100', "top_logprobs"],
  ])("responses: refuses %s naming %s", (fields, param) => {
    const error = refusal(() => parseResponsesBody(body(fields, '"model":"m","input":"Hi"')));
    expect(error.code).toBe("invalid_request");
    expect(error.param).toBe(param);
  });

  it.each([
    ['"dimensions":1e300', "dimensions"],
    ['"dimensions":0', "dimensions"],
    ['"dimensions":9007199254740993', "dimensions"],
  ])("embeddings: refuses %s naming %s", (fields, param) => {
    const error = refusal(() => parseEmbeddingsBody(body(fields, '"model":"m","input":"Hi"')));
    expect(error.code).toBe("invalid_request");
    expect(error.param).toBe(param);
  });

  it("embeddings: refuses token ids beyond 2^31 - 1", () => {
    expect(refusal(() => parseEmbeddingsBody({ model: "m", input: [1, 1e300] })).param).toBe("input");
    expect(parseEmbeddingsBody({ model: "m", input: [0, maxRequestInteger], dimensions: 256 })).toBeDefined();
  });
});

describe("checkRequestNumberFields", () => {
  it("accepts exactly what each field's zod schema accepts (the plain-comparison shortcut never widens a bound)", () => {
    const samples = [0, 1, -1, 0.5, 1.5, 2, 2.5, -2, -2.5, 20, 21, 100, -100, 101, 128, 129, maxRequestInteger, maxRequestInteger + 1, 2 ** 53, 2 ** 53 + 2, 1e300, -1e300, Number.POSITIVE_INFINITY, Number.NaN, -0, "1", true, {}, []];
    for (const [endpoint, fields] of Object.entries(requestNumberFields)) {
      for (const [name, schema] of Object.entries(fields)) {
        for (const value of samples) {
          const accepted = (() => {
            try {
              checkRequestNumberFields({ [name]: value }, fields);
              return true;
            } catch {
              return false;
            }
          })();
          expect(accepted, `${endpoint}.${name} = ${String(value)}`).toBe(schema.safeParse(value).success);
        }
      }
    }
  });
});

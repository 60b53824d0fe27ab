import { GatewayError } from "@gateway/errors";
import { describe, expect, it } from "vitest";
import { convertResponsesRequestToChat } from "./convert-responses-request-to-chat.js";

function refusal(body: Record<string, unknown>, target: "openai" | "anthropic"): GatewayError {
  try {
    convertResponsesRequestToChat(body, { model: "gpt-4o-mini", target });
  } catch (error) {
    if (GatewayError.isInstance(error)) return error;
    throw error;
  }
  throw new Error("expected the conversion to be refused");
}

describe("convertResponsesRequestToChat", () => {
  it("translates input, instructions and the output cap", () => {
    const result = convertResponsesRequestToChat({ model: "x", instructions: "Be brief.", input: "Hi", max_output_tokens: 50 }, { model: "gpt-4o-mini", target: "openai" });
    expect(result).toEqual({
      model: "gpt-4o-mini",
      messages: [
        { role: "system", content: "Be brief." },
        { role: "user", content: "Hi" },
      ],
      max_completion_tokens: 50,
    });
  });

  it("refuses a known field it cannot represent by name, accepting its no-op value", () => {
    expect(refusal({ model: "x", input: "Hi", max_tool_calls: 3 }, "openai").param).toBe("max_tool_calls");
    expect(() => convertResponsesRequestToChat({ model: "x", input: "Hi", top_logprobs: 0 }, { model: "m", target: "openai" })).not.toThrow();
  });

  // JSON.parse makes every one of these an own property, `__proto__` included.
  it.each(["valueOf", "hasOwnProperty", "__proto__", "toString", "constructor", "isPrototypeOf"])(
    "refuses a top-level '%s' by name like any unknown field",
    (name) => {
      for (const target of ["openai", "anthropic"] as const) {
        const error = refusal(JSON.parse(`{"model":"x","input":"Hi","${name}":{}}`), target);
        expect(error.code).toBe("unsupported_feature");
        expect(error.param).toBe(name);
      }
    },
  );
});

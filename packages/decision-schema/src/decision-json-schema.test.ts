import { describe, expect, it } from "vitest";
import { decisionRequestJsonSchema, decisionResponseJsonSchema } from "./decision-json-schema.js";

type Schema = Record<string, any>;

describe("decisionRequestJsonSchema", () => {
  const schema = decisionRequestJsonSchema as Schema;

  it("describes the request object with its fields and additional properties allowed", () => {
    expect(schema.type).toBe("object");
    expect(Object.keys(schema.properties)).toEqual(
      expect.arrayContaining(["model", "state", "questions", "stream", "max_tokens", "max_output_tokens", "max_completion_tokens"]),
    );
    expect(schema.required).toEqual(expect.arrayContaining(["model", "state", "questions"]));
    expect(schema.required).not.toContain("stream");
    expect(schema.additionalProperties).toEqual({});
    expect(schema.properties.model).toMatchObject({ type: "string", minLength: 1, maxLength: 1048576 });
  });

  it("carries the limits JSON Schema can express", () => {
    expect(schema.properties.questions).toMatchObject({ type: "object", minProperties: 1, maxProperties: 200 });
    expect(schema.properties.stream).toMatchObject({ const: false });
    expect(schema.properties.max_tokens).toEqual({ not: {} });
    const kinds = schema.properties.questions.additionalProperties.oneOf as Schema[];
    expect(kinds.map((kind) => kind.properties.type.const)).toEqual(["noul", "choice", "score"]);
    expect(kinds[1]!.properties.criteria).toMatchObject({ minProperties: 2, maxProperties: 255 });
  });

  it("is plain JSON", () => {
    expect(JSON.parse(JSON.stringify(schema))).toEqual(schema);
  });
});

describe("decisionResponseJsonSchema", () => {
  const schema = decisionResponseJsonSchema as Schema;

  it("describes answers, model and usage", () => {
    expect(schema.type).toBe("object");
    expect(Object.keys(schema.properties)).toEqual(["answers", "model", "usage"]);
    expect(schema.required).toEqual(["answers"]);
    const variants = schema.properties.answers.additionalProperties.oneOf as Schema[];
    expect(variants.map((variant) => variant.properties.type.const)).toEqual(["noul", "choice", "score", "refusal"]);
    expect(variants[0]!.properties.noul).toMatchObject({ type: "number", minimum: 0, maximum: 1 });
    expect(schema.properties.usage.properties.input_tokens).toMatchObject({ type: "integer", minimum: 0 });
  });
});

describe("JSON Schema of the exported zod schemas", () => {
  it("z.toJSONSchema renders them with unrepresentable: any, using the metadata of their in-place checks", async () => {
    const { z } = await import("zod");
    const { decisionRequestSchema } = await import("./decision-request-schema.js");
    const { decisionResponseSchema } = await import("./decision-response-schema.js");
    const request = z.toJSONSchema(decisionRequestSchema, { unrepresentable: "any" }) as Schema;
    expect(request).toEqual({ ...(decisionRequestJsonSchema as Schema), required: expect.any(Array), properties: expect.any(Object) });
    const choice = request.properties.questions.additionalProperties.oneOf[1].properties.criteria;
    expect(choice).toMatchObject({ type: "object", minProperties: 2, maxProperties: 255 });
    const response = z.toJSONSchema(decisionResponseSchema, { unrepresentable: "any" }) as Schema;
    expect(Object.keys(response.properties)).toEqual(["answers", "model", "usage"]);
  });

  it("describes score criteria as levels or a rubric", () => {
    const kinds = (decisionRequestJsonSchema as Schema).properties.questions.additionalProperties.oneOf as Schema[];
    const criteria = kinds[2]!.properties.criteria;
    expect(criteria.anyOf).toEqual([
      expect.objectContaining({ type: "array", minItems: 2, maxItems: 255 }),
      expect.objectContaining({ type: "object", minProperties: 2, maxProperties: 255 }),
    ]);
  });
});

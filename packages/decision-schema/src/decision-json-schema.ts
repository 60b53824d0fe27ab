import { z } from "zod";
import { decisionRequestSchema } from "./decision-request-schema.js";
import { decisionResponseSchema } from "./decision-response-schema.js";

/**
 * JSON Schema (draft 2020-12) of the decision request body, as a caller sends it (for the
 * OpenAPI document). Rules JSON Schema cannot say (numeric, distinct rubric keys) are enforced by
 * the zod schema only; entry counts appear as `minProperties` / `maxProperties`. (To render the
 * exported zod schemas yourself, pass `unrepresentable: "any"`: their in-place checks are
 * `z.custom` schemas that carry their JSON Schema as metadata.)
 */
export const decisionRequestJsonSchema: Record<string, unknown> = z.toJSONSchema(decisionRequestSchema, {
  io: "input",
  unrepresentable: "any",
});

/** JSON Schema (draft 2020-12) of the decision response body. */
export const decisionResponseJsonSchema: Record<string, unknown> = z.toJSONSchema(decisionResponseSchema, {
  io: "output",
  unrepresentable: "any",
});

import type { z } from "zod";

/**
 * Attaches the JSON Schema of a schema that zod cannot describe by itself (an in-place
 * `z.custom` check), as metadata. `z.toJSONSchema` then renders it when called with
 * `unrepresentable: "any"` (as `decisionRequestJsonSchema` / `decisionResponseJsonSchema` do);
 * without that option zod refuses custom schemas. Returns the schema with the metadata.
 */
export function withJsonSchema<Schema extends z.ZodType>(schema: Schema, jsonSchema: Record<string, unknown>): Schema {
  return schema.meta(jsonSchema);
}

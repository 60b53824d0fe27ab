import type { JsonObject } from "@gateway/contracts";
import { isJsonObject, joinParam, unsupportedFeature } from "../../formats/request-guards.js";

/** JSON Schema keywords Gemini's `parametersJsonSchema` / `responseJsonSchema` take. */
const geminiKeywords = new Set([
  "$id", "$defs", "$ref", "$anchor", "type", "format", "title", "description", "enum", "items", "prefixItems",
  "minItems", "maxItems", "minimum", "maximum", "anyOf", "oneOf", "properties", "additionalProperties", "required",
  "propertyOrdering", "nullable",
]);

/** Keywords that only annotate (no value becomes valid or invalid): left out. */
const annotationKeywords = new Set(["$schema", "$comment", "examples", "example", "default", "readOnly", "writeOnly", "deprecated", "definitions"]);

const subschemaMaps = new Set(["properties", "$defs"]);
const subschemaLists = new Set(["anyOf", "oneOf", "prefixItems"]);

/**
 * A JSON Schema reduced to the keywords Gemini takes (`parametersJsonSchema`,
 * `responseJsonSchema`): annotations (`$schema`, `examples`, `default`, ...) are left out. A
 * validation keyword Gemini has no form for (`pattern`, `minLength`, `allOf`, `not`, `const`,
 * `exclusiveMinimum`, ...) is left out of a tool's schema when `strict` is false (the schema
 * guides the model; the caller checks the arguments) and refused (`unsupported_feature` naming
 * the keyword's place) when `strict` is true (the caller relies on the answer matching it).
 * `definitions` (draft 7) is read as `$defs` when the schema has no `$defs`.
 */
export function convertJsonSchemaToGemini(schema: JsonObject, param: string, strict: boolean): JsonObject {
  const result: JsonObject = {};
  for (const [keyword, value] of Object.entries(schema)) {
    const at = joinParam(param, keyword);
    if (keyword === "definitions" && schema.$defs === undefined && isJsonObject(value)) {
      result.$defs = convertSchemaMap(value, at, strict);
      continue;
    }
    if (annotationKeywords.has(keyword)) continue;
    if (!geminiKeywords.has(keyword)) {
      if (strict) throw unsupportedFeature(at, `The JSON Schema keyword '${keyword}' (at '${at}') has no equivalent in Gemini's schemas.`);
      continue;
    }
    if (subschemaMaps.has(keyword) && isJsonObject(value)) result[keyword] = convertSchemaMap(value, at, strict);
    else if (subschemaLists.has(keyword) && Array.isArray(value)) {
      result[keyword] = value.map((entry, index) => (isJsonObject(entry) ? convertJsonSchemaToGemini(entry, joinParam(at, index), strict) : entry));
    } else if ((keyword === "items" || keyword === "additionalProperties") && isJsonObject(value)) {
      result[keyword] = convertJsonSchemaToGemini(value, at, strict);
    } else result[keyword] = value;
  }
  return result;
}

function convertSchemaMap(map: JsonObject, param: string, strict: boolean): JsonObject {
  const result: JsonObject = {};
  for (const [name, entry] of Object.entries(map)) {
    // Property names are the caller's: own keys, never assignment (`__proto__`).
    Object.defineProperty(result, name, {
      value: isJsonObject(entry) ? convertJsonSchemaToGemini(entry, joinParam(param, name), strict) : entry,
      enumerable: true, writable: true, configurable: true,
    });
  }
  return result;
}

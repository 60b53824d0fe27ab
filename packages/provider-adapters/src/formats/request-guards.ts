import type { JsonObject } from "@gateway/contracts";
import { GatewayError } from "@gateway/errors";

/** A plain JSON object. */

/** Whether a value is a plain JSON object (not an array, not null). */
export function isJsonObject(value: unknown): value is JsonObject {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** 400 `unsupported_feature` naming the field the translation cannot represent. */
export function unsupportedFeature(param: string, message: string): GatewayError {
  return new GatewayError("unsupported_feature", { param, message });
}

/** 400 `invalid_request` naming the malformed field. */
export function invalidRequest(param: string, message: string): GatewayError {
  return new GatewayError("invalid_request", { param, message });
}

/** Joins a parameter path: `joinParam("messages[0]", "content")` -> `messages[0].content`. */
export function joinParam(prefix: string, key: string | number): string {
  if (typeof key === "number") return `${prefix}[${key}]`;
  return prefix === "" ? key : `${prefix}.${key}`;
}

/** Throws `unsupported_feature` for the first key of `value` not in `allowed`. */
export function rejectUnknownKeys(value: JsonObject, allowed: ReadonlySet<string>, prefix: string, target: string): void {
  for (const key of Object.keys(value)) {
    if (!allowed.has(key)) {
      throw unsupportedFeature(joinParam(prefix, key), `'${joinParam(prefix, key)}' is not supported when translating to ${target}.`);
    }
  }
}

/** Requires an object. */
export function expectObject(value: unknown, param: string): JsonObject {
  if (!isJsonObject(value)) throw invalidRequest(param, `'${param}' must be an object.`);
  return value;
}

/** Requires an array. */
export function expectArray(value: unknown, param: string): unknown[] {
  if (!Array.isArray(value)) throw invalidRequest(param, `'${param}' must be an array.`);
  return value;
}

/** Requires a string. */
export function expectString(value: unknown, param: string): string {
  if (typeof value !== "string") throw invalidRequest(param, `'${param}' must be a string.`);
  return value;
}

/** Requires a finite number. */
export function expectNumber(value: unknown, param: string): number {
  if (typeof value !== "number" || !Number.isFinite(value)) throw invalidRequest(param, `'${param}' must be a number.`);
  return value;
}

/** Requires a positive integer. */
export function expectPositiveInteger(value: unknown, param: string): number {
  if (typeof value !== "number" || !Number.isInteger(value) || value < 1) {
    throw invalidRequest(param, `'${param}' must be a positive integer.`);
  }
  return value;
}

/** Requires a boolean. */
export function expectBoolean(value: unknown, param: string): boolean {
  if (typeof value !== "boolean") throw invalidRequest(param, `'${param}' must be a boolean.`);
  return value;
}

/** Validates an Anthropic `cache_control` value (`{type:"ephemeral", ttl?:"5m"|"1h"}`) and returns a copy. */
export function expectCacheControl(value: unknown, param: string): JsonObject {
  const cacheControl = expectObject(value, param);
  if (cacheControl.type !== "ephemeral") {
    throw unsupportedFeature(joinParam(param, "type"), `'${joinParam(param, "type")}' must be "ephemeral".`);
  }
  rejectUnknownKeys(cacheControl, new Set(["type", "ttl"]), param, "Anthropic");
  if (cacheControl.ttl !== undefined && cacheControl.ttl !== "5m" && cacheControl.ttl !== "1h") {
    throw unsupportedFeature(joinParam(param, "ttl"), `'${joinParam(param, "ttl")}' must be "5m" or "1h".`);
  }
  return { ...cacheControl };
}

/** Parses a tool call's JSON arguments string into an object (an empty string means `{}`). */
export function parseToolArguments(text: string, param: string): JsonObject {
  if (text.trim() === "") return {};
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw invalidRequest(param, `'${param}' must be a JSON object encoded as a string; it is not valid JSON.`);
  }
  if (!isJsonObject(parsed)) throw invalidRequest(param, `'${param}' must encode a JSON object.`);
  return parsed;
}

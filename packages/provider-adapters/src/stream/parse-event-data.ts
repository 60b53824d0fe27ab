import type { JsonObject } from "@gateway/contracts";
/** A JSON object as decoders read it. */

/** True for a plain JSON object (not null, not an array). */
export const isJsonObject = (value: unknown): value is JsonObject => typeof value === "object" && value !== null && !Array.isArray(value);

/** True for a non-negative safe integer (choice, block and tool-call indexes). */
export const isIndex = (value: unknown): value is number => typeof value === "number" && Number.isSafeInteger(value) && value >= 0;

/**
 * Parses an event's `data` as the JSON object every event of both wire formats is: the object,
 * or what is wrong with it (for the decoder's error, never echoing the data).
 */
export function parseEventData(data: string): { payload: JsonObject } | { problem: string } {
  let payload: unknown;
  try {
    payload = JSON.parse(data);
  } catch {
    return { problem: "not JSON" };
  }
  return isJsonObject(payload) ? { payload } : { problem: "not a JSON object" };
}

import { GatewayError } from "@gateway/errors";
import { checkRequestNumberFields, responsesNumberFields } from "./request-number-fields.js";

/** A Responses request body after the shape check: `model`, every other field kept. */
export type ResponsesBody = Record<string, unknown> & { model: string };

const maxMetadataEntries = 16;

const invalid = (param: string, message: string) => new GatewayError("invalid_request", { param, message });

/**
 * The validate stage of `POST /v1/responses`: `model` a non-empty string; `input` a string or an
 * array of item objects (it may be absent only with `previous_response_id`); `stream` and `store`
 * booleans when present; `previous_response_id` a non-empty string; `metadata` at most 16 string
 * values (keys up to 64 characters, values up to 512); number fields within their bounds
 * (`max_output_tokens` an integer from 1 to 2^31 - 1, `temperature` 0 to 2, …). Refused by name (400
 * `unsupported_feature`): `background: true` (the gateway answers in the request) and
 * `conversation` (its conversation state is `previous_response_id` and `store`). Other fields pass
 * through: native providers take them as they are; translations refuse what they cannot represent.
 */
export function parseResponsesBody(body: unknown): ResponsesBody {
  if (typeof body !== "object" || body === null || Array.isArray(body)) throw invalid("", "The request body must be a JSON object.");
  const request = body as Record<string, unknown>;
  if (typeof request.model !== "string" || request.model === "") throw invalid("model", "'model' must be a non-empty string.");
  const input = request.input;
  if (input === undefined || input === null) {
    if (typeof request.previous_response_id !== "string") throw invalid("input", "'input' is required (a string or an array of items).");
  } else if (typeof input !== "string") {
    if (!Array.isArray(input)) throw invalid("input", "'input' must be a string or an array of items.");
    input.forEach((item, index) => {
      if (typeof item !== "object" || item === null || Array.isArray(item)) throw invalid(`input[${index}]`, `'input[${index}]' must be an object.`);
    });
  }
  for (const key of ["stream", "store"]) {
    const value = request[key];
    if (value !== undefined && value !== null && typeof value !== "boolean") throw invalid(key, `'${key}' must be a boolean.`);
  }
  const previous = request.previous_response_id;
  if (previous !== undefined && previous !== null && (typeof previous !== "string" || previous === "" || previous.length > 256)) {
    throw invalid("previous_response_id", "'previous_response_id' must be a response id.");
  }
  const metadata = request.metadata;
  if (metadata !== undefined && metadata !== null) {
    if (typeof metadata !== "object" || Array.isArray(metadata)) throw invalid("metadata", "'metadata' must be an object of strings.");
    const entries = Object.entries(metadata);
    if (entries.length > maxMetadataEntries) throw invalid("metadata", `'metadata' may hold at most ${maxMetadataEntries} entries.`);
    for (const [key, value] of entries) {
      if (key.length > 64) throw invalid("metadata", "'metadata' keys may be at most 64 characters long.");
      if (typeof value !== "string" || value.length > 512) throw invalid(`metadata.${key}`, `'metadata.${key}' must be a string of at most 512 characters.`);
    }
  }
  checkRequestNumberFields(request, responsesNumberFields);
  if (request.background === true) {
    throw new GatewayError("unsupported_feature", { param: "background", message: "'background' responses are not supported: the gateway answers within the request." });
  }
  if (request.conversation !== undefined && request.conversation !== null) {
    throw new GatewayError("unsupported_feature", {
      param: "conversation",
      message: "'conversation' (the Conversations API) is not supported: continue a conversation with 'previous_response_id'.",
    });
  }
  return request as ResponsesBody;
}

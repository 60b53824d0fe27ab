import { isJsonObject } from "../request-guards.js";

/** Tool name used for `response_format: {type: "json_object"}`. */
export const JSON_OBJECT_TOOL_NAME = "json_object_response";

/**
 * The name of the forced tool that {@link convertChatRequestToAnthropic} adds for an OpenAI
 * `response_format` of type `json_schema` (the schema's `name`) or `json_object`, or `undefined`
 * when the request asks for plain text. Pass it as `jsonResponseTool` to the response and stream
 * converters so the tool's input comes back as the message `content`.
 */
export function getJsonResponseToolName(chatRequest: Record<string, unknown>): string | undefined {
  const responseFormat = chatRequest.response_format;
  if (!isJsonObject(responseFormat)) return undefined;
  if (responseFormat.type === "json_object") return JSON_OBJECT_TOOL_NAME;
  if (responseFormat.type === "json_schema" && isJsonObject(responseFormat.json_schema)) {
    const name = responseFormat.json_schema.name;
    return typeof name === "string" ? name : undefined;
  }
  return undefined;
}

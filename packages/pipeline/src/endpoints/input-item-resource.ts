import type { JsonObject } from "@gateway/contracts";
import { randomUUID } from "node:crypto";

/** Prefixes of the ids the gateway gives input items that came without one (as OpenAI's). */
const idPrefixByType: Readonly<Record<string, string>> = { message: "msg", function_call: "fc", function_call_output: "fco" };

/**
 * One input item of a Responses request as `GET /v1/responses/{id}/input_items` lists it, in
 * OpenAI's item shapes (`ItemResource`): a message, also one sent in the short form
 * (`{role: "user", content: "Hi"}`), is `{id, type: "message", role, content: [{type:
 * "input_text", text}]}` (an assistant's is an output message: `output_text`, `status`); a function call
 * `{id: "fc_...", type: "function_call", call_id, name, arguments, status}` and its output
 * `{id: "fco_...", type: "function_call_output", call_id, output, status}` (`status`
 * `completed` unless the item said otherwise). An id the caller gave is kept; an item without one
 * gets a new one (`msg_`, `fc_`, `fco_`, else `item_`). Other items keep their fields. Applying
 * it to an item it already produced changes nothing.
 */
export function toInputItemResource(item: JsonObject): JsonObject {
  const type = typeof item.type === "string" ? item.type : typeof item.role === "string" ? "message" : null;
  const id = typeof item.id === "string" ? item.id : `${(type === null ? undefined : idPrefixByType[type]) ?? "item"}_${randomUUID().replaceAll("-", "")}`;
  if (type === "message") {
    const assistant = item.role === "assistant";
    const content =
      typeof item.content === "string" ? [assistant ? { type: "output_text", text: item.content, annotations: [] } : { type: "input_text", text: item.content }] : item.content;
    const resource: JsonObject = { id, ...item, type: "message", content };
    // An assistant's message is an output message, whose status OpenAI always gives.
    if (assistant && typeof item.status !== "string") resource.status = "completed";
    return resource;
  }
  if (type === "function_call" || type === "function_call_output") {
    return { id, ...item, type, status: typeof item.status === "string" ? item.status : "completed" };
  }
  return typeof item.id === "string" ? item : { id, ...item };
}

import type { SseEvent } from "./sse-event.js";

/**
 * Serialises one event in the SSE wire format: `event:` and `id:` lines when set, one `data:`
 * line per line of `data`, then a blank line. Throws on an `event` or `id` containing a line break.
 */
export function formatSseEvent(event: SseEvent): string {
  let text = "";
  if (event.event !== undefined) {
    if (/[\r\n]/.test(event.event)) throw new TypeError("An SSE event name cannot contain a line break.");
    text += `event: ${event.event}\n`;
  }
  if (event.id !== undefined) {
    if (/[\r\n]/.test(event.id)) throw new TypeError("An SSE event id cannot contain a line break.");
    text += `id: ${event.id}\n`;
  }
  for (const line of event.data.split(/\r\n|\r|\n/)) text += `data: ${line}\n`;
  return `${text}\n`;
}

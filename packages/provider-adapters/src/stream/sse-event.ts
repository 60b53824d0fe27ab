/** One Server-Sent Event: `event:` name (absent means the default `message`), joined `data:` lines, and `id:`. */
export interface SseEvent {
  event?: string;
  data: string;
  id?: string;
}

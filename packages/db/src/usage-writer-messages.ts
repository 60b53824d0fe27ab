import type { UsageEventRecord } from "@gateway/contracts";

/** What the usage writer thread starts with. */
export interface UsageWriterWorkerData {
  /** A `file:` URL of the SQLite database. */
  url: string;
  busyTimeoutMs: number;
}

/** A message to the usage writer thread. */
export type UsageWriterRequest =
  | { kind: "write"; id: number; events: UsageEventRecord[]; skipStored: boolean; apiKeysLastUsed: ReadonlyMap<string, Date> | undefined }
  | { kind: "close"; id: number };

/** The thread's answer to one request (same `id`). */
export type UsageWriterReply = { id: number; written: number } | { id: number; error: { message: string; code: string | undefined } };

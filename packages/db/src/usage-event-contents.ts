import { promisify } from "node:util";
import { deflateRaw, inflateRawSync } from "node:zlib";
import type { UsageEventRecord } from "@gateway/contracts";
import type { DatabaseProvider } from "./database-url.js";
import type { SecretBinding, SecretBox } from "./secret-box.js";
import { type SqlClient, sqlBoolean, sqlDate, sqlPlaceholder, sqlTimestamp } from "./sql-client.js";
import type { SqlStatement } from "./statement-runner.js";

const deflate = promisify(deflateRaw);

/** Captured bytes per call when the project sets none (`projects.content_max_bytes`'s default). */
export const defaultContentMaxBytes = 65_536;
/** Days content is kept when the project sets none (`projects.content_retention_days`'s default). */
export const defaultContentRetentionDays = 7;

/** Content ready to store: cut to the project's cap, deflated, then encrypted bound to its row. */
export interface SealedUsageContent {
  requestCiphertext: string;
  responseCiphertext: string | null;
  truncated: boolean;
  /** UTF-8 bytes of the request and response JSON before cutting. */
  originalBytes: number;
  expiresAt: Date;
}

/** A usage event as the writers take it: with its content sealed (or not yet). */
export type UsageEventToWrite = UsageEventRecord & { sealedContent?: SealedUsageContent | null };

const REQUEST_COLUMN = "usage_event_contents.request_ciphertext";
const RESPONSE_COLUMN = "usage_event_contents.response_ciphertext";

/** The row a content ciphertext is bound to (a ciphertext copied to another call fails to decrypt). */
function contentBinding(organizationId: string, requestId: string, column: string): SecretBinding {
  return { organizationId, column, rowId: requestId };
}

/** Cuts `text` to at most `maxBytes` UTF-8 bytes without splitting a character. */
function cutUtf8(text: string, maxBytes: number): string {
  const bytes = Buffer.from(text, "utf8");
  if (bytes.length <= maxBytes) return text;
  let end = Math.max(0, maxBytes);
  // Step back over continuation bytes (10xxxxxx) so the cut lands on a character boundary.
  while (end > 0 && (bytes[end]! & 0xc0) === 0x80) end -= 1;
  return bytes.subarray(0, end).toString("utf8");
}

/**
 * Splits the cap between request and response: each gets half, and what one does not use goes to
 * the other. Returns the texts to store and whether anything was cut.
 */
export function capUsageContent(requestText: string, responseText: string | null, maxBytes: number): { request: string; response: string | null; truncated: boolean; originalBytes: number } {
  const requestBytes = Buffer.byteLength(requestText, "utf8");
  const responseBytes = responseText === null ? 0 : Buffer.byteLength(responseText, "utf8");
  const originalBytes = requestBytes + responseBytes;
  const cap = Math.max(0, Math.floor(maxBytes));
  if (originalBytes <= cap) return { request: requestText, response: responseText, truncated: false, originalBytes };
  const half = Math.floor(cap / 2);
  const requestShare = responseBytes < half ? cap - responseBytes : Math.min(requestBytes, half);
  const responseShare = cap - Math.min(requestBytes, requestShare);
  return {
    request: cutUtf8(requestText, requestShare),
    response: responseText === null ? null : cutUtf8(responseText, responseShare),
    truncated: true,
    originalBytes,
  };
}

async function sealText(secretBox: SecretBox, text: string, binding: SecretBinding): Promise<string> {
  const compressed = await deflate(Buffer.from(text, "utf8"));
  return secretBox.encrypt(compressed.toString("base64"), binding);
}

function openText(secretBox: SecretBox, ciphertext: string, binding: SecretBinding): string {
  return inflateRawSync(Buffer.from(secretBox.decrypt(ciphertext, binding), "base64")).toString("utf8");
}

/**
 * Seals the content of the events that carry some (`content: { request, response }`): cut to
 * `contentCapture.maxBytes`, deflated (on libuv's thread pool) and encrypted with the secret box,
 * bound to (organization, request id). Decisions and events without an organization keep none.
 * Returns new event objects where something changed; `content` is dropped from them.
 */
export async function sealUsageEventContents(events: UsageEventToWrite[], secretBox: SecretBox): Promise<UsageEventToWrite[]> {
  if (!events.some((event) => event.content !== null && event.content !== undefined && event.sealedContent == null)) return events;
  return Promise.all(
    events.map(async (event) => {
      if (event.content === null || event.content === undefined || event.sealedContent != null) return event;
      if (event.endpoint === "decisions" || event.organizationId === null) return { ...event, content: null };
      const { request, response } = splitContent(event.content);
      const capture = event.contentCapture ?? null;
      const capped = capUsageContent(JSON.stringify(request ?? null), response === undefined ? null : JSON.stringify(response), capture?.maxBytes ?? defaultContentMaxBytes);
      const retentionDays = capture?.retentionDays ?? defaultContentRetentionDays;
      const organizationId = event.organizationId;
      const sealedContent: SealedUsageContent = {
        requestCiphertext: await sealText(secretBox, capped.request, contentBinding(organizationId, event.requestId, REQUEST_COLUMN)),
        responseCiphertext: capped.response === null ? null : await sealText(secretBox, capped.response, contentBinding(organizationId, event.requestId, RESPONSE_COLUMN)),
        truncated: capped.truncated,
        originalBytes: capped.originalBytes,
        expiresAt: new Date(event.occurredAt.getTime() + retentionDays * 86_400_000),
      };
      return { ...event, content: null, sealedContent };
    }),
  );
}

function splitContent(content: unknown): { request: unknown; response: unknown } {
  if (content !== null && typeof content === "object" && !Array.isArray(content) && ("request" in content || "response" in content)) {
    const value = content as { request?: unknown; response?: unknown };
    return { request: value.request ?? null, response: value.response };
  }
  return { request: content, response: undefined };
}

const CONTENT_COLUMNS = ["organization_id", "request_id", "project_id", "occurred_at", "expires_at", "truncated", "original_bytes", "request_ciphertext", "response_ciphertext"] as const;

/** The INSERT of one call's sealed content (a replayed event's content is not written twice). */
export function usageEventContentStatement(provider: DatabaseProvider, event: UsageEventRecord, sealed: SealedUsageContent): SqlStatement {
  const args = [
    event.organizationId, event.requestId, event.projectId, sqlTimestamp(provider, event.occurredAt), sqlTimestamp(provider, sealed.expiresAt),
    sealed.truncated, sealed.originalBytes, sealed.requestCiphertext, sealed.responseCiphertext,
  ];
  return {
    sql: `INSERT INTO "usage_event_contents" (${CONTENT_COLUMNS.map((column) => `"${column}"`).join(", ")}) VALUES (${args.map((_, index) => sqlPlaceholder(provider, index + 1)).join(", ")}) ON CONFLICT ("organization_id", "request_id") DO NOTHING`,
    args,
  };
}

/** One call's captured content, decrypted. */
export interface UsageEventContent {
  /** The request JSON as captured (after redaction guardrails); the cut text when `truncated` and no longer JSON. */
  request: unknown;
  /** The response JSON (or the cut text when `truncated`); null when the call had none. */
  response: unknown;
  /** True when the content was cut at the project's `content_max_bytes`. */
  truncated: boolean;
  capturedAt: Date;
}

function parseCaptured(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

/**
 * The captured content of one call of the organization, or null when none was captured, it
 * expired, or it belongs to another organization. Rows captured before `usage_event_contents`
 * existed are read from `usage_events.content`. Throws `SecretBoxError` when the ciphertext
 * cannot be decrypted (wrong key, tampering).
 */
export async function readUsageEventContent(db: SqlClient, secretBox: SecretBox, options: { organizationId: string; requestId: string; now?: Date }): Promise<UsageEventContent | null> {
  const [organization, request, now] = [1, 2, 3].map((position) => sqlPlaceholder(db.provider, position));
  const rows = await db.queryStatement({
    sql: `SELECT "occurred_at", "truncated", "request_ciphertext", "response_ciphertext" FROM "usage_event_contents" WHERE "organization_id" = ${organization} AND "request_id" = ${request} AND "expires_at" > ${now}`,
    args: [options.organizationId, options.requestId, sqlTimestamp(db.provider, options.now ?? new Date())],
  });
  const row = rows[0];
  if (row !== undefined) {
    const requestText = openText(secretBox, String(row.request_ciphertext), contentBinding(options.organizationId, options.requestId, REQUEST_COLUMN));
    const responseText = row.response_ciphertext === null || row.response_ciphertext === undefined ? null : openText(secretBox, String(row.response_ciphertext), contentBinding(options.organizationId, options.requestId, RESPONSE_COLUMN));
    return { request: parseCaptured(requestText), response: responseText === null ? null : parseCaptured(responseText), truncated: sqlBoolean(row.truncated), capturedAt: sqlDate(row.occurred_at)! };
  }
  const legacy = await db.queryStatement({
    sql: `SELECT "occurred_at", "content" FROM "usage_events" WHERE "organization_id" = ${organization} AND "request_id" = ${request} AND "content" IS NOT NULL AND "endpoint" <> 'decisions' ORDER BY "occurred_at" DESC LIMIT 1`,
    args: [options.organizationId, options.requestId],
  });
  const older = legacy[0];
  if (older === undefined) return null;
  const content = typeof older.content === "string" ? parseCaptured(older.content) : older.content;
  if (content === null || content === undefined) return null;
  const { request: requestValue, response } = splitContent(content);
  return { request: requestValue, response: response ?? null, truncated: false, capturedAt: sqlDate(older.occurred_at)! };
}

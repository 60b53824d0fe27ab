import { randomFillSync } from "node:crypto";

const randomBytesPerId = 12;
/** Random bytes drawn in blocks: one system call per 341 ids instead of one per request. */
const pool = Buffer.allocUnsafe(randomBytesPerId * 341);
let offset = pool.length;

/**
 * A new gateway request id: `req_`, the Unix time in milliseconds as 9 base-36 digits (so ids
 * sort by time, and the usage table's request-id index grows at its right edge instead of
 * taking a random page per row), then 16 URL-safe base64 characters (96 random bits).
 */
export function generateRequestId(now: number = Date.now()): string {
  if (offset + randomBytesPerId > pool.length) {
    randomFillSync(pool);
    offset = 0;
  }
  const random = pool.toString("base64url", offset, offset + randomBytesPerId);
  offset += randomBytesPerId;
  return `req_${now.toString(36).padStart(9, "0")}${random}`;
}

import { randomFillSync } from "node:crypto";

const idBytes = 15;
/** Random bytes drawn in blocks: one system call per 273 ids instead of one per request. */
const pool = Buffer.allocUnsafe(idBytes * 273);
let offset = pool.length;

/** A new gateway request id: `req_` followed by 20 URL-safe base64 characters (120 random bits). */
export function generateRequestId(): string {
  if (offset + idBytes > pool.length) {
    randomFillSync(pool);
    offset = 0;
  }
  const id = pool.toString("base64url", offset, offset + idBytes);
  offset += idBytes;
  return `req_${id}`;
}

import { randomFillSync } from "node:crypto";

const randomBytesPerId = 8;
/** Random bytes drawn in blocks: one system call per 512 ids. */
const pool = Buffer.allocUnsafe(randomBytesPerId * 512);
let poolOffset = pool.length;
let lastMs = 0;
let sequence = 0;

/**
 * A UUID version 7 (RFC 9562): 48 bits of Unix milliseconds, then a 12-bit sequence that keeps
 * ids of the same process strictly increasing within a millisecond, then 62 random bits. Rows
 * keyed by these ids are appended at the right edge of their B-tree instead of landing on a
 * random page, so a batch of usage events dirties a few pages rather than one per row (half the
 * insert cost on SQLite, and index locality on PostgreSQL), and ids sort by creation time.
 */
export function timeOrderedId(now: number = Date.now()): string {
  if (now > lastMs) {
    lastMs = now;
    sequence = 0;
  } else {
    // Same millisecond (or the clock stepped back): count on; past 4095 ids borrow the next millisecond.
    sequence += 1;
    if (sequence > 0xfff) {
      lastMs += 1;
      sequence = 0;
    }
  }
  if (poolOffset + randomBytesPerId > pool.length) {
    randomFillSync(pool);
    poolOffset = 0;
  }
  const random = pool.toString("hex", poolOffset, poolOffset + randomBytesPerId);
  const variant = ((pool[poolOffset]! & 0x3f) | 0x80).toString(16);
  poolOffset += randomBytesPerId;
  const time = lastMs.toString(16).padStart(12, "0");
  const counter = sequence.toString(16).padStart(3, "0");
  return `${time.slice(0, 8)}-${time.slice(8, 12)}-7${counter}-${variant}${random.slice(2, 4)}-${random.slice(4, 16)}`;
}

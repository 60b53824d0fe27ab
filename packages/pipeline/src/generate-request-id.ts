import { randomBytes } from "node:crypto";

/** A new gateway request id: `req_` followed by 24 random base32-ish characters. */
export function generateRequestId(): string {
  return `req_${randomBytes(15).toString("base64url")}`;
}

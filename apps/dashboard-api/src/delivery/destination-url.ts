import { z } from "zod";
import { checkOutboundUrlIssue } from "../resources/outbound-url-check.js";

/**
 * An HTTPS URL; plain http is accepted only for localhost and 127.0.0.1 (local collectors and
 * tests), so that event payloads and signatures never cross a network unencrypted. Its host must
 * pass the outbound address policy (`checkOutboundUrlIssue`).
 */
export const deliveryUrl = z
  .url()
  .max(2000)
  .refine((value) => {
    // The refinement also runs when `z.url()` already refused the value: parse without throwing.
    if (!URL.canParse(value)) return false;
    const url = new URL(value);
    if (url.protocol === "https:") return true;
    return url.protocol === "http:" && (url.hostname === "localhost" || url.hostname === "127.0.0.1" || url.hostname === "[::1]");
  }, "use an https:// URL (http:// only for localhost)")
  .superRefine(checkOutboundUrlIssue);

/** A URL without its query string and credentials (safe to show). */
export function displayUrl(value: string): string {
  try {
    const url = new URL(value);
    return `${url.origin}${url.pathname}`;
  } catch {
    return "";
  }
}

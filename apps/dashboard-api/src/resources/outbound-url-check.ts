import { checkOutboundUrl, outboundAddressPolicyFromEnvironment } from "@gateway/provider-adapters";
import type { z } from "zod";

/**
 * A zod refinement for the URLs organizations store (connection base URLs, MCP servers, telemetry
 * and notification URLs): refuses a URL whose host the outbound address policy refuses as
 * written (link-local and cloud metadata addresses always, numeric spellings such as
 * `http://2852039166/` included; loopback and private addresses under
 * `GATEWAY_OUTBOUND_PRIVATE_ADDRESSES=deny`), with a 400 whose message names the address and the
 * rule. Host names are checked on their resolved addresses when a connection opens.
 */
export function checkOutboundUrlIssue(value: string, context: z.RefinementCtx): void {
  let refusal;
  try {
    refusal = checkOutboundUrl(value, outboundAddressPolicyFromEnvironment());
  } catch {
    // An invalid setting fails the dashboard's start; should it change later, refuse private ranges.
    refusal = checkOutboundUrl(value, { privateAddresses: "deny" });
  }
  if (refusal !== null) context.addIssue({ code: "custom", message: `outbound address refused: ${refusal.message}` });
}

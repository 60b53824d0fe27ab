/** String enums stored in String columns (SQLite has no enum type); validated here. */
// The lists shared with other packages are defined in @gateway/contracts (one list, one zod schema each);
// the connection kinds are the provider registry's (one folder per provider in @gateway/provider-adapters).
export { providerKinds as CONNECTION_KINDS } from "@gateway/provider-adapters/kinds";
export {
  mcpAuthKinds as MCP_AUTH_KINDS,
  mcpTransports as MCP_TRANSPORTS,
  notificationChannelKinds as NOTIFICATION_CHANNEL_KINDS,
  telemetryDestinationKinds as TELEMETRY_DESTINATION_KINDS,
  usageEndpoints as USAGE_ENDPOINTS,
} from "@gateway/contracts";
export const ORGANIZATION_AUTHENTICATION = ["password", "sso"] as const;
export const MEMBERSHIP_ROLES = ["owner", "admin", "member", "viewer"] as const;
export const ROUTE_STRATEGIES = ["priority", "weighted", "least-latency"] as const;
export const POLICY_SCOPES = ["organization", "project", "key"] as const;
export const BUDGET_SCOPES = ["organization", "project", "key", "team"] as const;
export const BUDGET_PERIODS = ["day", "week", "month", "total"] as const;
export const BUDGET_MODES = ["hard", "soft"] as const;
export const RATE_LIMIT_SCOPES = ["project", "key"] as const;
export const INVITATION_DELIVERY_STATUSES = ["sent", "failed", "expired"] as const;
/**
 * Why an invitation email failed: no mail transport is configured (`SMTP_URL` unset: the link
 * was only logged), the SMTP server refused the recipient, or the SMTP exchange failed.
 */
export const INVITATION_DELIVERY_FAILURES = ["no_mail_transport", "recipient_rejected", "smtp_failed"] as const;
export const MCP_SERVER_STATUSES = ["pending", "connected", "error", "disconnected"] as const;
export const AUDIT_ACTOR_KINDS = ["user", "system", "config", "api_key"] as const;

/** Returns `value` typed as one of `allowed`, or throws an Error naming `where`. */
export function assertOneOf<const T extends readonly string[]>(allowed: T, value: string, where: string): T[number] {
  if ((allowed as readonly string[]).includes(value)) return value as T[number];
  throw new Error(`invalid value "${value}" in ${where}; expected one of ${allowed.join(", ")}`);
}

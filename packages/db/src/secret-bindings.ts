import { randomBytes } from "node:crypto";
import type { SecretBinding } from "./secret-box.js";

/**
 * What a connection's credential ciphertext is bound to (`SecretBox` v2): its organization and
 * id, so a ciphertext copied to another connection or organization does not decrypt.
 */
export function connectionCredentialBinding(organizationId: string, id: string): SecretBinding {
  return { organizationId, column: "connections.credential_ciphertext", rowId: id };
}

/** What a telemetry destination's config ciphertext is bound to (its organization and id). */
export function telemetryDestinationConfigBinding(organizationId: string, id: string): SecretBinding {
  return { organizationId, column: "telemetry_destinations.config_ciphertext", rowId: id };
}

/** What a notification channel's config ciphertext is bound to (its organization and id). */
export function notificationChannelConfigBinding(organizationId: string, id: string): SecretBinding {
  return { organizationId, column: "notification_channels.config_ciphertext", rowId: id };
}

/** A new row id (cuid-shaped, like the column defaults), made before the insert so an encrypted column can be bound to it. */
export function newBoundRowId(): string {
  return `c${Date.now().toString(36)}${randomBytes(12).toString("hex").slice(0, 16)}`;
}

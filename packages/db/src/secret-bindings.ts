import type { SecretBinding } from "./secret-box.js";

/**
 * What a connection's credential ciphertext is bound to (`SecretBox` v2): its organization and
 * id, so a ciphertext copied to another connection or organization does not decrypt.
 */
export function connectionCredentialBinding(organizationId: string, id: string): SecretBinding {
  return { organizationId, column: "connections.credential_ciphertext", rowId: id };
}

/** An MCP server's stored OAuth grant, decrypted (`@gateway/db`'s `readMcpServerGrant` returns one). */
export interface StoredMcpGrant {
  serverId: string;
  organizationId: string;
  name: string;
  authKind: string;
  /** The ciphertext the tokens were read from (compare and swap on store). */
  tokensCiphertext: string | null;
  tokens: { accessToken: string; refreshToken?: string | null; tokenType?: string | null; scope?: string | null } | null;
  expiresAt: Date | null;
  tokenEndpoint: string | null;
  resource: string | null;
  client: { clientId: string; clientSecret: string | null; tokenEndpointAuthMethod: string } | null;
}

/**
 * Where grants are read and refreshed tokens stored (the gateway wires `@gateway/db`'s raw-driver
 * functions; no Prisma in the serving process). Writes bump the control-plane version, so every
 * instance reloads the new access token with its next snapshot.
 */
export interface McpGrantStore {
  read(serverId: string): Promise<StoredMcpGrant | null>;
  /** Stores refreshed tokens while the row still holds `previousCiphertext`; false when it moved on. */
  storeRefreshed(input: {
    serverId: string;
    previousCiphertext: string;
    tokens: { accessToken: string; refreshToken: string | null; tokenType: string | null; scope: string | null };
    expiresAt: Date | null;
  }): Promise<boolean>;
  /** Marks the server's grant failed (status "error" with `message`) unless its tokens changed since `previousCiphertext`. */
  markFailed(input: { serverId: string; previousCiphertext: string | null; message: string }): Promise<boolean>;
}

import { GatewayError } from "@gateway/errors";
import { z } from "zod";

/** The token endpoint google-auth-library posts service-account assertions to. */
export const googleTokenUrl = "https://oauth2.googleapis.com/token";

/** The fields of a Google service-account JSON key the gateway uses. */
export interface ServiceAccountKey {
  clientEmail: string;
  privateKey: string;
  /** Empty when the key has none. */
  privateKeyId: string;
  /** Where the signed assertion is exchanged for a token (Google's endpoint unless the key says otherwise). */
  tokenUri: string;
}

const keySchema = z.object({
  type: z.literal("service_account"),
  client_email: z.string().min(1),
  private_key: z.string().includes("PRIVATE KEY"),
  private_key_id: z.string().optional(),
  token_uri: z.url({ protocol: /^https?$/ }).optional(),
});

/**
 * Reads a service-account JSON key (as downloaded from Google Cloud: `type: "service_account"`,
 * `client_email`, `private_key`, optional `private_key_id` and `token_uri`). Anything else (other
 * credential types included: external-account configurations run commands or read files and are
 * not accepted from a connection) fails with 502 `upstream_error` that shows nothing of the text.
 */
export function parseServiceAccountKey(credential: string, connection: string): ServiceAccountKey {
  let json: unknown;
  try {
    json = JSON.parse(credential);
  } catch {
    json = undefined;
  }
  const parsed = keySchema.safeParse(json);
  if (!parsed.success) {
    throw new GatewayError("upstream_error", {
      message: `The credential of the connection '${connection}' is not a Google service-account JSON key (type, client_email and private_key are required).`,
      retryable: true,
      details: { provider: connection },
    });
  }
  const key = parsed.data;
  return {
    clientEmail: key.client_email,
    privateKey: key.private_key,
    privateKeyId: key.private_key_id ?? "",
    tokenUri: key.token_uri ?? googleTokenUrl,
  };
}

import { GatewayError } from "@gateway/errors";
import { z } from "zod";

/** AWS credentials that sign a request. */
export interface AwsCredentials {
  accessKeyId: string;
  secretAccessKey: string;
  sessionToken?: string;
  /** When temporary credentials stop working (absent: long-term keys). */
  expiration?: Date;
}

const staticCredentialSchema = z.strictObject({
  accessKeyId: z.string().min(1),
  secretAccessKey: z.string().min(1),
  sessionToken: z.string().min(1).optional(),
});

/**
 * A `bedrock` connection's credential: a JSON object `{"accessKeyId", "secretAccessKey",
 * "sessionToken"?}`; null or empty: none (the AWS environment variables are used). A credential
 * of another shape fails with 502 `upstream_error` (not retryable); the message never quotes it.
 */
export function parseAwsCredential(credential: string | null, provider: string): AwsCredentials | null {
  if (credential === null || credential.trim() === "") return null;
  let value: unknown;
  try {
    value = JSON.parse(credential);
  } catch {
    value = undefined;
  }
  const parsed = staticCredentialSchema.safeParse(value);
  if (!parsed.success) {
    throw new GatewayError("upstream_error", {
      message: `The credential of the connection '${provider}' is not a JSON object of accessKeyId, secretAccessKey and an optional sessionToken.`,
      retryable: false,
      details: { provider },
    });
  }
  return parsed.data;
}

/**
 * Credentials from the standard AWS environment variables (`AWS_ACCESS_KEY_ID`,
 * `AWS_SECRET_ACCESS_KEY`, `AWS_SESSION_TOKEN`), or null when they are not set.
 */
export function awsCredentialsFromEnvironment(environment: NodeJS.ProcessEnv = process.env): AwsCredentials | null {
  const accessKeyId = environment.AWS_ACCESS_KEY_ID;
  const secretAccessKey = environment.AWS_SECRET_ACCESS_KEY;
  if (accessKeyId === undefined || accessKeyId === "" || secretAccessKey === undefined || secretAccessKey === "") return null;
  const sessionToken = environment.AWS_SESSION_TOKEN;
  return { accessKeyId, secretAccessKey, ...(sessionToken === undefined || sessionToken === "" ? {} : { sessionToken }) };
}

/** The strings of credentials that must never appear in an error or a log. */
export function credentialSecrets(credentials: AwsCredentials | null | undefined): string[] {
  if (credentials === null || credentials === undefined) return [];
  return [credentials.accessKeyId, credentials.secretAccessKey, ...(credentials.sessionToken === undefined ? [] : [credentials.sessionToken])];
}

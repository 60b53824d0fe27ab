import { GatewayError } from "@gateway/errors";
import type { HttpTransport } from "../../http-transport.js";
import type { AdapterConnection, ProviderCallContext } from "../../provider-adapter.js";
import { assumeAwsRole } from "./assume-aws-role.js";
import { type AwsCredentials, awsCredentialsFromEnvironment, parseAwsCredential } from "./aws-credentials.js";
import type { BedrockSettings } from "./bedrock-settings.js";

/** Resolves the credentials that sign a connection's next request. */
export type BedrockCredentialSource = (context: ProviderCallContext) => Promise<AwsCredentials>;

/** Assumed-role credentials are renewed this long before they expire. */
const renewBeforeExpiryMs = 5 * 60_000;

/**
 * The credentials of a `bedrock` connection: its credential's keys (JSON), else the AWS
 * environment variables; with a `roleArn` setting, those keys assume the role through STS and
 * the temporary credentials are cached until five minutes before they expire (concurrent calls
 * share one STS request; a failed one is not cached). No keys anywhere fails with 502.
 */
export function createBedrockCredentialSource(options: {
  connection: AdapterConnection;
  settings: BedrockSettings;
  /** Sends STS requests: the gateway's transport, or (the dashboard's connection test) its policed `fetch`. */
  sts: { transport: HttpTransport } | { fetch: typeof fetch };
  environment?: NodeJS.ProcessEnv;
  now?: () => number;
}): BedrockCredentialSource {
  const { connection, settings, sts } = options;
  const now = options.now ?? Date.now;
  // The same credentials object while the keys stay the same (request signers are kept per object):
  // the connection's keys parsed once, the environment's replaced only when its variables change.
  let fromConnection: AwsCredentials | null | undefined;
  let fromEnvironment: AwsCredentials | null = null;
  const environmentCredentials = (): AwsCredentials | null => {
    const current = awsCredentialsFromEnvironment(options.environment);
    const same =
      current !== null &&
      fromEnvironment !== null &&
      current.accessKeyId === fromEnvironment.accessKeyId &&
      current.secretAccessKey === fromEnvironment.secretAccessKey &&
      current.sessionToken === fromEnvironment.sessionToken;
    if (!same) fromEnvironment = current;
    return fromEnvironment;
  };
  const baseCredentials = (): AwsCredentials => {
    if (fromConnection === undefined) fromConnection = parseAwsCredential(connection.credential, connection.name);
    const credentials = fromConnection ?? environmentCredentials();
    if (credentials === null) {
      throw new GatewayError("upstream_error", {
        message: `The connection '${connection.name}' has no AWS credentials (no keys in its credential, no AWS_ACCESS_KEY_ID in the environment).`,
        retryable: true,
        details: { provider: connection.name },
      });
    }
    return credentials;
  };
  const roleArn = settings.roleArn;
  if (roleArn === undefined) return async () => baseCredentials();

  let cached: AwsCredentials | undefined;
  let pending: Promise<AwsCredentials> | undefined;
  return async (context) => {
    if (cached?.expiration !== undefined && cached.expiration.getTime() - renewBeforeExpiryMs > now()) return cached;
    pending ??= assumeAwsRole({
      send: async (url, headers) => {
        if ("transport" in sts) return sts.transport.requestJson({ url, method: "GET", headers, context, provider: connection.name });
        const response = await sts.fetch(url, { headers, signal: AbortSignal.timeout(30_000) });
        return { status: response.status, text: await response.text() };
      },
      credentials: baseCredentials(),
      roleArn,
      sessionName: settings.roleSessionName ?? "ai-gateway",
      ...(settings.externalId === undefined ? {} : { externalId: settings.externalId }),
      region: settings.region,
      ...(settings.stsEndpoint === undefined ? {} : { endpoint: settings.stsEndpoint }),
      provider: connection.name,
    })
      .then((credentials) => {
        cached = credentials;
        return credentials;
      })
      .finally(() => {
        pending = undefined;
      });
    return pending;
  };
}

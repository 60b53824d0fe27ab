import { GatewayError } from "@gateway/errors";
import type { AwsCredentials } from "./aws-credentials.js";
import { signAwsRequest } from "./sign-aws-request.js";

/** Options of {@link assumeAwsRole}. */
export interface AssumeAwsRoleOptions {
  /** Sends the signed GET (through the outbound address policy) and returns its status and body text. */
  send(url: string, headers: Record<string, string>): Promise<{ status: number; text: string }>;
  /** The credentials that call STS (the connection's keys or the environment's). */
  credentials: AwsCredentials;
  roleArn: string;
  sessionName: string;
  externalId?: string;
  region: string;
  /** The STS endpoint (default `https://sts.{region}.amazonaws.com`). */
  endpoint?: string;
  provider: string;
}

/** How long an assumed role's session lasts (STS's default, the longest every role allows). */
const sessionSeconds = 3600;

/**
 * Calls STS `AssumeRole` (a SigV4-signed query GET, sent by `send`) and reads the temporary credentials from its XML answer.
 * A refusal fails with 502 `upstream_error` naming the STS status, never quoting keys.
 */
export async function assumeAwsRole(options: AssumeAwsRoleOptions): Promise<AwsCredentials> {
  const endpoint = options.endpoint ?? `https://sts.${options.region}.amazonaws.com`;
  const url = new URL("/", endpoint);
  url.searchParams.set("Action", "AssumeRole");
  url.searchParams.set("Version", "2011-06-15");
  url.searchParams.set("RoleArn", options.roleArn);
  url.searchParams.set("RoleSessionName", options.sessionName);
  url.searchParams.set("DurationSeconds", String(sessionSeconds));
  if (options.externalId !== undefined) url.searchParams.set("ExternalId", options.externalId);
  const headers = await signAwsRequest({
    request: { url: url.toString(), method: "GET", headers: { accept: "application/xml" } },
    credentials: options.credentials,
    region: options.region,
    service: "sts",
  });
  const response = await options.send(url.toString(), headers);
  if (response.status < 200 || response.status >= 300) {
    throw new GatewayError("upstream_error", {
      message: `AWS STS refused to let the connection '${options.provider}' assume its role (status ${response.status}${stsErrorCode(response.text)}).`,
      retryable: response.status >= 500 || response.status === 429,
      details: { provider: options.provider, upstreamStatus: response.status },
    });
  }
  const accessKeyId = xmlElement(response.text, "AccessKeyId");
  const secretAccessKey = xmlElement(response.text, "SecretAccessKey");
  const sessionToken = xmlElement(response.text, "SessionToken");
  const expiration = new Date(xmlElement(response.text, "Expiration") ?? "");
  if (accessKeyId === undefined || secretAccessKey === undefined || sessionToken === undefined || Number.isNaN(expiration.getTime())) {
    throw new GatewayError("upstream_error", {
      message: `AWS STS answered the connection '${options.provider}' without credentials.`,
      retryable: true,
      details: { provider: options.provider },
    });
  }
  return { accessKeyId, secretAccessKey, sessionToken, expiration };
}

/** `, AccessDenied` from an STS error answer's `<Code>` (an error code, never a secret). */
function stsErrorCode(text: string): string {
  const code = xmlElement(text, "Code");
  return code !== undefined && /^[\w.]{1,64}$/.test(code) ? `, ${code}` : "";
}

/** The text of the first `<name>` element (STS answers are flat enough for this). */
function xmlElement(text: string, name: string): string | undefined {
  const match = new RegExp(`<${name}>([^<]*)</${name}>`).exec(text);
  return match?.[1] === undefined ? undefined : decodeXmlText(match[1].trim());
}

function decodeXmlText(text: string): string {
  return text.replace(/&(lt|gt|amp|quot|apos);/g, (_, entity: string) => ({ lt: "<", gt: ">", amp: "&", quot: '"', apos: "'" })[entity] ?? "");
}

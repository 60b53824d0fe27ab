import { Sha256 } from "@aws-crypto/sha256-js";
import { SignatureV4 } from "@smithy/signature-v4";
import type { AwsCredentials } from "./aws-credentials.js";

/** A request to sign: the exact URL, method, headers and body bytes that are sent. */
export interface AwsRequestToSign {
  url: string;
  method: "GET" | "POST";
  headers: Record<string, string>;
  /** The body text as sent (absent for a GET). */
  body?: string;
}

/**
 * Signs a request with AWS Signature Version 4 (`@smithy/signature-v4`) for a service and
 * region: returns the headers to send (the given ones plus `host`, `x-amz-date`,
 * `x-amz-content-sha256`, `x-amz-security-token` for temporary credentials, and
 * `authorization`). Headers added after signing (a `traceparent`) are not signed and do not
 * break the signature.
 */
export async function signAwsRequest(options: {
  request: AwsRequestToSign;
  credentials: AwsCredentials;
  region: string;
  service: string;
  signingDate?: Date;
}): Promise<Record<string, string>> {
  const { request, credentials } = options;
  const url = new URL(request.url);
  const signer = new SignatureV4({
    credentials: {
      accessKeyId: credentials.accessKeyId,
      secretAccessKey: credentials.secretAccessKey,
      ...(credentials.sessionToken === undefined ? {} : { sessionToken: credentials.sessionToken }),
    },
    region: options.region,
    service: options.service,
    sha256: Sha256,
  });
  const query: Record<string, string> = {};
  for (const [key, value] of url.searchParams) query[key] = value;
  const signed = await signer.sign(
    {
      method: request.method,
      protocol: url.protocol,
      hostname: url.hostname,
      ...(url.port === "" ? {} : { port: Number(url.port) }),
      path: url.pathname,
      query,
      headers: { ...request.headers, host: url.host },
      ...(request.body === undefined ? {} : { body: request.body }),
    },
    options.signingDate === undefined ? {} : { signingDate: options.signingDate },
  );
  return signed.headers;
}

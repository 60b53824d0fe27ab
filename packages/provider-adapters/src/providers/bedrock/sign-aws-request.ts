import { Hash } from "@smithy/hash-node";
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

// SHA-256 through node:crypto (the pure-JavaScript hash cost more than the rest of a translated call).
const nodeSha256 = Hash.bind(null, "sha256");

// One signer per credentials object, region and service: a signer keeps the day's derived signing
// key, so a call costs one HMAC chain instead of five. Credentials objects are replaced when they
// change (an assumed role renewed), which drops their signers.
const signers = new WeakMap<AwsCredentials, Map<string, SignatureV4>>();

function signerOf(credentials: AwsCredentials, region: string, service: string): SignatureV4 {
  let byScope = signers.get(credentials);
  if (byScope === undefined) {
    byScope = new Map();
    signers.set(credentials, byScope);
  }
  const scope = `${region}/${service}`;
  let signer = byScope.get(scope);
  if (signer === undefined) {
    signer = new SignatureV4({
      credentials: {
        accessKeyId: credentials.accessKeyId,
        secretAccessKey: credentials.secretAccessKey,
        ...(credentials.sessionToken === undefined ? {} : { sessionToken: credentials.sessionToken }),
      },
      region,
      service,
      sha256: nodeSha256,
    });
    byScope.set(scope, signer);
  }
  return signer;
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
  const signer = signerOf(credentials, options.region, options.service);
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

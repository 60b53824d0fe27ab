import { Sha256 } from "@aws-crypto/sha256-js";
import { SignatureV4 } from "@smithy/signature-v4";
import { createHash } from "node:crypto";
import type { IncomingHttpHeaders } from "node:http";

/** Keys the mock knows: access key id -> secret (and the session token temporary keys need). */
export type MockAwsKeys = Map<string, { secretAccessKey: string; sessionToken?: string }>;

/** Why a request's signature was refused (an AWS error type and message), or null when it verifies. */
export type SignatureProblem = { errorType: string; message: string } | null;

const authorizationPattern = /^AWS4-HMAC-SHA256 Credential=([^/]+)\/(\d{8})\/([^/]+)\/([^/]+)\/aws4_request, ?SignedHeaders=([a-z0-9;-]+), ?Signature=([0-9a-f]{64})$/;

/**
 * Verifies a request's SigV4 signature as AWS does: the access key is known, the scope names
 * the expected region and service and the date of `x-amz-date`, the date is within 15 minutes,
 * temporary keys carry their `x-amz-security-token`, and the signature recomputed over the
 * signed headers, the path as received and the body bytes matches.
 */
export async function verifySigV4(options: {
  method: string;
  /** The path and query as received (still percent-encoded). */
  rawPath: string;
  headers: IncomingHttpHeaders;
  body: Buffer;
  keys: MockAwsKeys;
  region: string;
  service: string;
  now?: Date;
}): Promise<SignatureProblem> {
  const authorization = header(options.headers, "authorization");
  const match = authorization === undefined ? null : authorizationPattern.exec(authorization);
  if (match === null) return { errorType: "MissingAuthenticationTokenException", message: "Missing Authentication Token" };
  const [, accessKeyId, shortDate, region, service, signedHeaderList, signature] = match as unknown as string[];
  const key = options.keys.get(accessKeyId!);
  if (key === undefined) return { errorType: "UnrecognizedClientException", message: "The security token included in the request is invalid." };
  if (region !== options.region || service !== options.service) {
    return { errorType: "InvalidSignatureException", message: `Credential should be scoped to a valid region and service ('${options.region}', '${options.service}').` };
  }
  const amzDate = header(options.headers, "x-amz-date") ?? "";
  const signingDate = parseAmzDate(amzDate);
  if (signingDate === undefined || !amzDate.startsWith(shortDate!)) return { errorType: "InvalidSignatureException", message: "Date in Credential scope does not match YYYYMMDD from ISO-8601 version of date from HTTP." };
  if (Math.abs((options.now ?? new Date()).getTime() - signingDate.getTime()) > 15 * 60_000) return { errorType: "InvalidSignatureException", message: "Signature expired." };
  if (key.sessionToken !== undefined && header(options.headers, "x-amz-security-token") !== key.sessionToken) {
    return { errorType: "UnrecognizedClientException", message: "The security token included in the request is invalid." };
  }
  const signedHeaders: Record<string, string> = {};
  for (const name of signedHeaderList!.split(";")) {
    const value = header(options.headers, name);
    if (value === undefined) return { errorType: "InvalidSignatureException", message: `Signed header '${name}' is missing.` };
    signedHeaders[name] = value;
  }
  const declaredHash = signedHeaders["x-amz-content-sha256"];
  if (declaredHash !== undefined && declaredHash !== "UNSIGNED-PAYLOAD" && declaredHash !== createHash("sha256").update(options.body).digest("hex")) {
    return { errorType: "InvalidSignatureException", message: "The provided 'x-amz-content-sha256' header does not match what was computed." };
  }
  const url = new URL(options.rawPath, "http://mock.invalid");
  const query: Record<string, string> = {};
  for (const [name, value] of url.searchParams) query[name] = value;
  const signer = new SignatureV4({ credentials: { accessKeyId: accessKeyId!, secretAccessKey: key.secretAccessKey }, region: options.region, service: options.service, sha256: Sha256, applyChecksum: false });
  const expected = await signer.sign(
    { method: options.method, protocol: "http:", hostname: "mock.invalid", path: url.pathname, query, headers: signedHeaders, body: options.body },
    { signingDate, signableHeaders: new Set(Object.keys(signedHeaders)) },
  );
  const expectedSignature = /Signature=([0-9a-f]{64})/.exec(String(expected.headers.authorization))?.[1];
  if (expectedSignature !== signature) {
    return { errorType: "InvalidSignatureException", message: "The request signature we calculated does not match the signature you provided. Check your AWS Secret Access Key and signing method." };
  }
  return null;
}

function header(headers: IncomingHttpHeaders, name: string): string | undefined {
  const value = headers[name];
  return Array.isArray(value) ? value.join(",") : value;
}

function parseAmzDate(value: string): Date | undefined {
  const match = /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/.exec(value);
  if (match === null) return undefined;
  return new Date(Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3]), Number(match[4]), Number(match[5]), Number(match[6])));
}

import { GatewayError, redactSecrets } from "@gateway/errors";
import { mapUpstreamError } from "../../map-upstream-error.js";

/** Input of {@link mapBedrockError}: a non-2xx answer, or an exception event of a stream. */
export interface BedrockErrorInput {
  status: number;
  headers: Record<string, string>;
  /** The parsed JSON body (`{"message": ...}`), if any. */
  body: unknown;
  /** The exception's type (`x-amzn-errortype`, `__type`, or a stream's `:exception-type`), if known. */
  errorType?: string;
  provider: string;
  /** Credential strings that must never appear in a message. */
  secrets: readonly (string | null | undefined)[];
}

// Access keys (long-term AKIA, temporary ASIA), signatures and signed-header lists: never shown.
const awsSecretShapes = /\b(?:AKIA|ASIA)[A-Z0-9]{12,}\b|Signature=[0-9a-f]{16,}|Credential=[^\s,]+/g;

/**
 * Maps a Bedrock error to a GatewayError. The exception type decides where it says more than
 * the status: `ThrottlingException` -> 429 `upstream_rate_limited` (its `Retry-After` passed on),
 * `ValidationException` -> 400 `invalid_request`, `AccessDeniedException` /
 * `UnrecognizedClientException` -> 502 `upstream_error` (the connection's keys or account are at
 * fault: status 403 in the details, the text not shown), `ResourceNotFoundException` -> 404,
 * `ModelNotReadyException` / `ServiceUnavailableException` -> 503 `service_unavailable`
 * (retryable), `ModelTimeoutException` -> 504, `ModelErrorException` /
 * `ModelStreamErrorException` / `InternalServerException` -> 502 (retryable). Messages are
 * redacted of the credential, access key ids and signatures.
 */
export function mapBedrockError(input: BedrockErrorInput): GatewayError {
  const type = normalizeErrorType(input.errorType ?? input.headers["x-amzn-errortype"] ?? bodyType(input.body));
  const message = redactedMessage(input.body, input.secrets);
  const body = message === undefined ? undefined : { message };
  const { provider } = input;
  const details = { provider, upstreamStatus: input.status, ...(type === undefined ? {} : { upstreamErrorType: type }) };
  switch (type) {
    case "throttlingexception":
    case "servicequotaexceededexception":
      return mapUpstreamError({ ...input, status: 429, body, secrets: input.secrets });
    case "validationexception":
      return mapUpstreamError({ ...input, status: 400, body, secrets: input.secrets });
    case "accessdeniedexception":
    case "unrecognizedclientexception":
    case "invalidsignatureexception":
    case "expiredtokenexception":
      return new GatewayError("upstream_error", {
        message: `The provider '${provider}' refused the gateway's AWS credentials or account (${input.errorType ?? "status 403"}).`,
        retryable: true,
        details: { ...details, upstreamStatus: 403 },
      });
    case "resourcenotfoundexception":
      return mapUpstreamError({ ...input, status: 404, body, secrets: input.secrets });
    case "modelnotreadyexception":
    case "serviceunavailableexception":
      return new GatewayError("service_unavailable", {
        message: message ?? `The provider '${provider}' cannot serve the model right now.`,
        retryable: true,
        details: { ...details, upstreamStatus: 503 },
      });
    case "modeltimeoutexception":
      return new GatewayError("upstream_timeout", { message: `The model of the provider '${provider}' did not answer in time.`, retryable: true, details });
    case "modelerrorexception":
    case "modelstreamerrorexception":
    case "internalserverexception":
      return new GatewayError("upstream_error", { message: `The provider '${provider}' failed (${input.errorType}).`, retryable: true, details });
    default:
      return mapUpstreamError({ ...input, body, secrets: input.secrets });
  }
}

/** `ThrottlingException:http://internal.amazon.com/...` or `com.amazon...#ThrottlingException` -> `throttlingexception`. */
function normalizeErrorType(raw: unknown): string | undefined {
  if (typeof raw !== "string" || raw === "") return undefined;
  const name = raw.split(":")[0]!.split("#").at(-1)!;
  return name.toLowerCase();
}

function bodyType(body: unknown): unknown {
  if (typeof body !== "object" || body === null) return undefined;
  const record = body as Record<string, unknown>;
  return record.__type ?? record.code;
}

/** The error's message (`message` or `Message`), redacted, or undefined. */
function redactedMessage(body: unknown, secrets: readonly (string | null | undefined)[]): string | undefined {
  if (typeof body !== "object" || body === null) return undefined;
  const record = body as Record<string, unknown>;
  const text = record.message ?? record.Message;
  if (typeof text !== "string" || text.trim() === "") return undefined;
  return redactSecrets(text, secrets).replace(awsSecretShapes, "[redacted]");
}

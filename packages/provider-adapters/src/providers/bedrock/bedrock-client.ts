import { GatewayError } from "@gateway/errors";
import type { HttpStreamResponse, HttpTransport } from "../../http-transport.js";
import type { AdapterConnection, ProviderCallContext } from "../../provider-adapter.js";
import { lowerCaseKeys, malformedAnswer } from "../../upstream-call.js";
import { credentialSecrets } from "./aws-credentials.js";
import type { BedrockCredentialSource } from "./bedrock-credential-source.js";
import type { BedrockSettings } from "./bedrock-settings.js";
import { mapBedrockError } from "./map-bedrock-error.js";
import { signAwsRequest } from "./sign-aws-request.js";

/** The Bedrock runtime operations the gateway calls (`POST /model/{modelId}/{operation}`). */
export type BedrockOperation = "converse" | "converse-stream" | "invoke" | "count-tokens";

/** A signed JSON call of a Bedrock runtime operation. */
export interface BedrockClient {
  /** Calls an operation and returns its 2xx JSON answer; an error answer throws the mapped GatewayError. */
  postJson(operation: BedrockOperation, modelId: string, body: Record<string, unknown>, context: ProviderCallContext): Promise<{ status: number; body: Record<string, unknown>; headers: Record<string, string> }>;
  /** Calls a streaming operation and returns once its headers arrived (a 2xx answer); an error answer throws. */
  postStream(operation: BedrockOperation, modelId: string, body: Record<string, unknown>, context: ProviderCallContext): Promise<HttpStreamResponse>;
  /** The strings an error or log must never show: the credential and the keys that signed. */
  secrets(): readonly string[];
}

/** The runtime endpoint of a region. */
export function bedrockRuntimeUrl(region: string): string {
  return `https://bedrock-runtime.${region}.amazonaws.com`;
}

/**
 * A client of a connection's Bedrock runtime: the connection's base URL (a test's mock, a VPC
 * endpoint) or `https://bedrock-runtime.{region}.amazonaws.com`; each request signed with SigV4
 * (service `bedrock`, the connection's region) by the connection's credentials, sent through
 * the gateway's transport with the connection's extra headers.
 */
export function createBedrockClient(options: {
  connection: AdapterConnection;
  settings: BedrockSettings;
  transport: HttpTransport;
  credentials: BedrockCredentialSource;
}): BedrockClient {
  const { connection, settings, transport } = options;
  const base = (connection.baseUrl ?? bedrockRuntimeUrl(settings.region)).replace(/\/+$/, "");
  const seen = new Set<string>();
  const secrets = (): readonly string[] => [...(connection.credential === null ? [] : [connection.credential]), ...seen];

  async function prepare(operation: BedrockOperation, modelId: string, body: Record<string, unknown>, accept: string, context: ProviderCallContext) {
    const url = `${base}/model/${encodeURIComponent(modelId)}/${operation}`;
    let credentials;
    try {
      credentials = await options.credentials(context);
    } catch (error) {
      throw withProvider(error, connection.name);
    }
    for (const secret of credentialSecrets(credentials)) {
      seen.add(secret);
      // Assumed-role keys change hourly: the newest few are enough (an error quotes the keys that signed it).
      if (seen.size > 12) seen.delete(seen.values().next().value!);
    }
    const headers = await signAwsRequest({
      request: { url, method: "POST", headers: { ...lowerCaseKeys(connection.headers), accept, "content-type": "application/json" }, body: JSON.stringify(body) },
      credentials,
      region: settings.region,
      service: "bedrock",
    });
    return { url, headers };
  }

  const fail = (status: number, headers: Record<string, string>, body: unknown): GatewayError =>
    mapBedrockError({ status, headers, body, provider: connection.name, secrets: secrets() });

  return {
    secrets,
    async postJson(operation, modelId, body, context) {
      const { url, headers } = await prepare(operation, modelId, body, "application/json", context);
      const response = await transport.requestJson({ url, method: "POST", headers, body, context, provider: connection.name, ...(connection.timeouts === undefined ? {} : { timeouts: connection.timeouts }) });
      if (response.status < 200 || response.status >= 300) throw fail(response.status, response.headers, response.body);
      if (typeof response.body !== "object" || response.body === null || Array.isArray(response.body)) throw malformedAnswer(connection.name, "is not a JSON object");
      return { status: response.status, body: response.body as Record<string, unknown>, headers: response.headers };
    },
    async postStream(operation, modelId, body, context) {
      const { url, headers } = await prepare(operation, modelId, body, "application/vnd.amazon.eventstream", context);
      const response = await transport.requestStream({ url, method: "POST", headers, body, context, provider: connection.name, ...(connection.timeouts === undefined ? {} : { timeouts: connection.timeouts }) });
      if (response.status < 200 || response.status >= 300) {
        const { body: errorBody } = await response.readJson();
        throw fail(response.status, response.headers, errorBody);
      }
      return response;
    },
  };
}

function withProvider(error: unknown, provider: string): unknown {
  if (!GatewayError.isInstance(error) || error.details?.provider !== undefined) return error;
  return new GatewayError(error.code, { message: error.message, retryable: error.retryable, cause: error, details: { ...error.details, provider } });
}

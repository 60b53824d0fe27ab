import type { AdapterConnection } from "../../provider-adapter.js";
import type { ConnectionTestRequest } from "../provider-definition.js";
import { createBedrockCredentialSource } from "./bedrock-credential-source.js";
import type { BedrockSettings } from "./bedrock-settings.js";
import { signAwsRequest } from "./sign-aws-request.js";
import { CallAbort } from "../../call-abort.js";

/**
 * The dashboard's connection test: `GET /foundation-models` of the Bedrock control plane
 * (`https://bedrock.{region}.amazonaws.com`, or the connection's base URL), signed with the
 * connection's credentials (an assumed role fetched through `fetch`). Free, and it fails on bad
 * keys, a bad region or a role that cannot be assumed.
 */
export async function bedrockConnectionTest(connection: AdapterConnection, settings: BedrockSettings, dependencies: { fetch: typeof fetch }): Promise<ConnectionTestRequest> {
  const credentials = await createBedrockCredentialSource({ connection, settings, sts: { fetch: dependencies.fetch } })({
    requestId: "connection-test",
    abort: new CallAbort(),
    deadline: Date.now() + 30_000,
  });
  const base = (connection.baseUrl ?? `https://bedrock.${settings.region}.amazonaws.com`).replace(/\/+$/, "");
  const url = `${base}/foundation-models`;
  const headers = await signAwsRequest({ request: { url, method: "GET", headers: { accept: "application/json" } }, credentials, region: settings.region, service: "bedrock" });
  return { url, method: "GET", headers };
}

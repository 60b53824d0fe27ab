import { normalizeDecisionUsage } from "../../formats/decisions/decision-usage.js";
import { checkDecisionResponse } from "@gateway/decision-schema";
import { GatewayError, ProviderPassthroughError, redactSecretsInValue } from "@gateway/errors";
import { mapUpstreamError } from "../../map-upstream-error.js";
import type { ProviderAdapterDependencies } from "../provider-definition.js";
import type { AdapterConnection, DecisionModel } from "../../provider-adapter.js";
import { apiUrlOf, lowerCaseKeys } from "../../upstream-call.js";
import { bearerCredentialHeaders } from "../bearer-credential-headers.js";

/**
 * The decision model of an upstream that speaks the decision contract natively:
 * `POST {baseUrl}/v1/systemone` with the request as sent (extra properties preserved; only
 * `model` is replaced by the upstream model name) and `Authorization: Bearer <credential>`.
 * Its non-2xx JSON answers pass through as `ProviderPassthroughError` (status,
 * payload with the credential redacted, `Retry-After`); a non-JSON error answer is mapped like any upstream error. 200
 * answers are checked with `checkDecisionResponse` (malformed: 502 `upstream_error`).
 * The provider has no other model (chat, embeddings, token counts: `unsupported_feature`).
 */
export function createSystemOneDecisionModel(connection: AdapterConnection, dependencies: ProviderAdapterDependencies): DecisionModel {
  const { transport } = dependencies;
  return {
    passthrough: ["systemone-decisions"],
    logprobs: false,

    async decide(request, target, context) {
      const response = await transport.requestJson({
        url: apiUrlOf(connection, "/systemone"),
        method: "POST",
        headers: {
          accept: "application/json",
          ...bearerCredentialHeaders(connection.credential),
          ...lowerCaseKeys(connection.headers),
        },
        body: { ...request, model: target.upstreamModel },
        context,
        provider: connection.name,
      });
      if (response.status < 200 || response.status >= 300) {
        if (typeof response.body === "object" && response.body !== null) {
          const retryAfter = response.headers["retry-after"];
          const error = new ProviderPassthroughError({
            status: response.status,
            // Passed through as the provider sent it, except for its credential (which it may quote).
            payload: redactSecretsInValue(response.body, [connection.credential]),
            ...(retryAfter === undefined ? {} : { retryAfter }),
            retryable: response.status === 429 || response.status >= 500, details: { provider: connection.name, upstreamStatus: response.status },
          });
          throw error;
        }
        throw mapUpstreamError({
          status: response.status,
          headers: response.headers,
          body: undefined,
          provider: connection.name,
          secrets: [connection.credential],
        });
      }
      if (response.body === undefined) {
        throw new GatewayError("upstream_error", {
          message: `The answer of the provider '${connection.name}' is not JSON.`,
          retryable: true, details: { provider: connection.name },
        });
      }
      const checked = checkDecisionResponse(request, response.body);
      return { response: checked, usage: normalizeDecisionUsage(checked.usage) };
    },
  };
}

import { type PostJsonOptions, postJson as postJsonWithAgent } from "@gateway/pipeline";

export type { DeliveryOutcome, PostJsonOptions } from "@gateway/pipeline";

/** The `user-agent` of the dashboard's deliveries. */
export const dashboardUserAgent = "ai-gateway-dashboard/0.1";

/**
 * POSTs a JSON body with the dashboard's user agent (`postJson` of `@gateway/pipeline`):
 * any 2xx within the timeout is delivered; refusals, errors and timeouts are outcomes.
 */
export function postJson(options: PostJsonOptions): ReturnType<typeof postJsonWithAgent> {
  return postJsonWithAgent({ userAgent: dashboardUserAgent, ...options });
}

import { useQuery } from "@tanstack/react-query";
import { isApiError } from "../api/api-error.js";
import type { AuthSession } from "../api/api-types.js";
import { callApi, dashboardClient } from "../api/dashboard-client.js";

/** The query key of the login session. */
export const sessionQueryKey = ["session"] as const;

/**
 * Reads the login session (`GET /v1/auth/session`): the session, `null` when signed out (401),
 * or the error of any other failure.
 */
export function useSessionQuery() {
  return useQuery<AuthSession | null>({
    queryKey: sessionQueryKey,
    queryFn: async () => {
      try {
        return await callApi(dashboardClient.GET("/v1/auth/session"));
      } catch (error) {
        if (isApiError(error) && error.status === 401) return null;
        throw error;
      }
    },
    staleTime: 60_000,
  });
}

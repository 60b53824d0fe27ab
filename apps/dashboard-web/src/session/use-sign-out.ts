import { useQueryClient } from "@tanstack/react-query";
import { useNavigate } from "react-router";
import { callApi, dashboardClient } from "../api/dashboard-client.js";
import { clearSessionExpired } from "./session-expiry.js";
import { sessionQueryKey } from "./use-session-query.js";

/** Signs out (`POST /v1/auth/logout`), forgets every cached answer and goes to the login page. */
export function useSignOut(): (next?: string) => Promise<void> {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  return async (next = "/login") => {
    try {
      await callApi(dashboardClient.POST("/v1/auth/logout"));
    } finally {
      queryClient.clear();
      clearSessionExpired();
      queryClient.setQueryData(sessionQueryKey, null);
      navigate(next, { replace: true });
    }
  };
}

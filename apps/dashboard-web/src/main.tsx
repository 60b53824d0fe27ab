import { MutationCache, QueryCache, QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { StrictMode } from "react";
import { createRoot } from "react-dom/client";
import { BrowserRouter } from "react-router";
import { isApiError } from "./api/api-error.js";
import { App } from "./app.js";
import { markSessionExpired } from "./session/session-expiry.js";
import { sessionQueryKey } from "./session/use-session-query.js";
import "./styles.css";

// A 401 anywhere means the session ended (expired, revoked, signed out elsewhere). While signed in,
// the screen stays (with whatever was typed into it) and the layout asks to sign in again;
// otherwise it is the login page.
const onError = (error: unknown) => {
  if (!isApiError(error) || error.status !== 401 || error.code !== "unauthenticated") return;
  if (queryClient.getQueryData(sessionQueryKey)) markSessionExpired();
  else queryClient.setQueryData(sessionQueryKey, null);
};
const queryClient: QueryClient = new QueryClient({
  queryCache: new QueryCache({ onError }),
  mutationCache: new MutationCache({ onError }),
  defaultOptions: {
    queries: {
      // Client errors (4xx) will not change on a retry; network and server failures get two.
      retry: (count, error) => count < 2 && !(isApiError(error) && error.status >= 400 && error.status < 500),
      refetchOnWindowFocus: false,
      staleTime: 5_000,
    },
  },
});

createRoot(document.getElementById("root")!).render(
  <StrictMode>
    <QueryClientProvider client={queryClient}>
      <BrowserRouter>
        <App />
      </BrowserRouter>
    </QueryClientProvider>
  </StrictMode>,
);

'use client';
import { MutationCache, QueryCache, QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { useState, type ReactNode } from 'react';
import { ApiRequestError, isPortalPage } from '@/lib/client/api-client';

// Several live queries fail with 401 together when a session ends; navigating once per failure made
// each navigation abort the one before it.
let redirecting = false;

function redirectWhenSignedOut(error: unknown) {
  if (
    error instanceof ApiRequestError &&
    error.status === 401 &&
    window.location.pathname !== '/sign-in' &&
    !redirecting
  ) {
    redirecting = true;
    // A portal session that expired or was revoked: the portal's own layout says so (app/portal/layout.tsx).
    // The admin's sign-in page means nothing to the operator's customer, who has no admin account.
    if (isPortalPage()) window.location.reload();
    else
      window.location.assign(`/sign-in?next=${encodeURIComponent(window.location.pathname + window.location.search)}`);
  }
}

export function QueryProvider({ children }: { children: ReactNode }) {
  const [client] = useState(
    () =>
      new QueryClient({
        queryCache: new QueryCache({ onError: redirectWhenSignedOut }),
        mutationCache: new MutationCache({ onError: redirectWhenSignedOut }),
        defaultOptions: {
          queries: {
            staleTime: 2_000,
            // A 4xx will answer the same way again; only network trouble and 5xx are worth retrying.
            retry: (failureCount, error) =>
              failureCount < 2 && !(error instanceof ApiRequestError && error.status >= 400 && error.status < 500),
          },
        },
      }),
  );
  return <QueryClientProvider client={client}>{children}</QueryClientProvider>;
}

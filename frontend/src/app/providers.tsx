import { QueryClientProvider, type QueryClient } from '@tanstack/react-query';
import { useEffect, type ReactNode } from 'react';
import { ToastProvider } from '@/components/toast/toast-provider';
import { sessionStore } from '@/lib/session';

/** Server state, notifications, and a query cache that is emptied whenever the user changes. */
export function AppProviders({ client, children }: { client: QueryClient; children: ReactNode }) {
  useEffect(
    () =>
      sessionStore.subscribe((state, previous) => {
        if (state.username !== previous.username) client.clear();
      }),
    [client],
  );
  return (
    <QueryClientProvider client={client}>
      <ToastProvider>{children}</ToastProvider>
    </QueryClientProvider>
  );
}

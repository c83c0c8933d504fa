import { QueryClientProvider } from '@tanstack/react-query';
import { render } from '@testing-library/react';
import type { ReactElement } from 'react';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router-dom';
import { ToastProvider } from '@/components/toast/toast-provider';
import { createQueryClient } from '@/lib/query-client';
import { createToastStore } from '@/lib/toast-store';

function LocationProbe() {
  const location = useLocation();
  return <output data-testid="location">{location.pathname}</output>;
}

/** Renders `ui` at `route` with a fresh query client and toast store; exposes the location. */
export function renderWithProviders(ui: ReactElement, { route = '/', path = '*' } = {}) {
  const client = createQueryClient();
  const toasts = createToastStore();
  const result = render(
    <QueryClientProvider client={client}>
      <ToastProvider store={toasts}>
        <MemoryRouter initialEntries={[route]}>
          <Routes>
            <Route path={path} element={ui} />
            <Route path="*" element={null} />
          </Routes>
          <LocationProbe />
        </MemoryRouter>
      </ToastProvider>
    </QueryClientProvider>,
  );
  return { ...result, client, toasts };
}

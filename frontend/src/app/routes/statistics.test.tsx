import { QueryClientProvider } from '@tanstack/react-query';
import { cleanup, render, screen, waitFor } from '@testing-library/react';
import { RouterProvider, createMemoryRouter } from 'react-router-dom';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ToastProvider } from '@/components/toast/toast-provider';
import { createQueryClient } from '@/lib/query-client';
import { login, logout } from '@/lib/session';
import { createToastStore } from '@/lib/toast-store';
import { tokenFor } from '@/test/tokens';
import { routes } from '../routes';

const fetchMock = vi.fn<typeof fetch>();

function renderAt(path: string) {
  const router = createMemoryRouter(routes, { initialEntries: [path] });
  render(
    <QueryClientProvider client={createQueryClient()}>
      <ToastProvider store={createToastStore()}>
        <RouterProvider router={router} />
      </ToastProvider>
    </QueryClientProvider>,
  );
  return router;
}

beforeEach(() => {
  fetchMock.mockReset();
  fetchMock.mockRejectedValue(new TypeError('offline'));
  vi.stubGlobal('fetch', fetchMock);
});
afterEach(() => {
  cleanup();
  logout();
  vi.unstubAllGlobals();
});

describe('/statistics', () => {
  it('loads the dashboard (a lazy chunk) for an admin and asks for the overview stats', async () => {
    login(tokenFor('root', 3600, 'ROLE_USER,ROLE_ADMIN'), 'root');
    const router = renderAt('/statistics');
    expect(
      await screen.findByRole('heading', { level: 1, name: 'Application Statistics' }, { timeout: 5000 }),
    ).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/statistics');
    expect(await screen.findByRole('alert')).toHaveTextContent('Network error - check your connection');
    expect(fetchMock.mock.calls.map(([input]) => String(input))).toContain('/api/stats');
  });

  it('sends a signed-in non-admin to /, and a visitor to /login', async () => {
    login(tokenFor('alice', 3600), 'alice');
    const router = renderAt('/statistics');
    await waitFor(() => expect(router.state.location.pathname).toBe('/'));
    expect(fetchMock.mock.calls.map(([input]) => String(input))).not.toContain('/api/stats');
    cleanup();
    logout();
    const visitor = renderAt('/statistics');
    await waitFor(() => expect(visitor.state.location.pathname).toBe('/login'));
  });
});

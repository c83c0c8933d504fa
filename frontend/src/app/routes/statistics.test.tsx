import { cleanup, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { login, logout } from '@/lib/session';
import { urlOf } from '@/test/fetch';
import { renderApp } from '@/test/render-app';
import { tokenFor } from '@/test/tokens';

const fetchMock = vi.fn<typeof fetch>();

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
    const router = renderApp('/statistics');
    expect(
      await screen.findByRole('heading', { level: 1, name: 'Application Statistics' }, { timeout: 5000 }),
    ).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/statistics');
    expect(await screen.findByRole('alert')).toHaveTextContent('Network error - check your connection');
    expect(fetchMock.mock.calls.map(([input]) => urlOf(input))).toContain('/api/stats');
  });

  it('sends a signed-in non-admin to /, and a visitor to /login', async () => {
    login(tokenFor('alice', 3600), 'alice');
    const router = renderApp('/statistics');
    await waitFor(() => expect(router.state.location.pathname).toBe('/'));
    expect(fetchMock.mock.calls.map(([input]) => urlOf(input))).not.toContain('/api/stats');
    cleanup();
    logout();
    const visitor = renderApp('/statistics');
    await waitFor(() => expect(visitor.state.location.pathname).toBe('/login'));
  });
});

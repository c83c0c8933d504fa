import { QueryClientProvider } from '@tanstack/react-query';
import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { RouterProvider, createMemoryRouter } from 'react-router-dom';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ToastProvider } from '@/components/toast/toast-provider';
import { createQueryClient } from '@/lib/query-client';
import { login, logout } from '@/lib/session';
import { createToastStore } from '@/lib/toast-store';
import { tokenFor } from '@/test/tokens';
import { RequireAdmin } from './guards';
import { routes } from './routes';

const fetchMock = vi.fn<typeof fetch>();

function renderAt(path: string, extraRoutes = routes) {
  const router = createMemoryRouter(extraRoutes, { initialEntries: [path] });
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

describe('signed out', () => {
  it('shows the welcome page at / with Login and Register, without any API call', () => {
    const router = renderAt('/');
    expect(router.state.location.pathname).toBe('/');
    expect(screen.getAllByRole('link', { name: 'Login' }).length).toBeGreaterThan(0);
    expect(screen.getByRole('link', { name: 'Register' })).toHaveAttribute('href', '/register');
    expect(screen.queryByRole('navigation', { name: 'Main' })).toBeNull();
    expect(screen.getByRole('group', { name: 'Theme' })).toBeInTheDocument();
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it.each([
    ['/settings', '/login'],
    ['/nowhere', '/'],
    ['/gifs', '/login'],
    ['/upload', '/login'],
    ['/gifs/3', '/login'],
  ])('%s redirects to %s', async (from, to) => {
    const router = renderAt(from);
    await waitFor(() => expect(router.state.location.pathname).toBe(to));
  });

  it('keeps admin routes for signed-in users', async () => {
    const router = renderAt('/admin-only', [
      { path: '/login', element: <p>login</p> },
      { element: <RequireAdmin />, children: [{ path: '/admin-only', element: <p>secret</p> }] },
    ]);
    await waitFor(() => expect(router.state.location.pathname).toBe('/login'));
  });
});

describe('signed in', () => {
  it('shows the header links, greeting and the signed-in home', () => {
    login(tokenFor('alice', 3600), 'alice');
    renderAt('/');
    const nav = screen.getByRole('navigation', { name: 'Main' });
    const links = Array.from(nav.querySelectorAll('a')).map((a) => [
      a.textContent,
      a.getAttribute('href'),
    ]);
    expect(links).toEqual([
      ['Cloud', '/'],
      ['Gifs', '/gifs'],
      ['Tags', '/tags'],
      ['Mine', '/user/alice'],
      ['Collections', '/collections'],
      ['Favourites', '/favourites'],
      ['Upload', '/upload'],
      ['Make', '/make'],
      ['Settings', '/settings'],
    ]);
    expect(within(nav).getByRole('button', { name: 'Random' })).toBeInTheDocument();
    expect(screen.getByText('Hello, alice')).toBeInTheDocument();
    expect(screen.getByRole('heading', { level: 1, name: 'Tag Cloud' })).toBeInTheDocument();
  });

  it.each([
    ['/gifs', 'All GIFs'],
    ['/gifs?q=cats', 'Search results for "cats"'],
    ['/tags/funny', 'GIFs tagged with "funny"'],
    ['/user/bob', 'GIFs by bob'],
    ['/favourites', 'Favourites'],
    ['/upload', 'Upload a GIF'],
    ['/tags', 'Browse by Tags'],
    ['/tags/cloud', 'Tag Cloud'],
  ])('%s shows the GIF screen "%s"', async (path, heading) => {
    login(tokenFor('alice', 3600), 'alice');
    renderAt(path);
    expect(await screen.findByRole('heading', { level: 1, name: heading })).toBeInTheDocument();
  });

  it('/gifs/:id shows the detail screen', async () => {
    login(tokenFor('alice', 3600), 'alice');
    renderAt('/gifs/12');
    expect(await screen.findByRole('alert')).toHaveTextContent('Network error - check your connection');
    expect(fetchMock.mock.calls[0]?.[0]).toBe('/api/gifs/dto/12');
  });

  it('shows Statistics to admins only', () => {
    login(tokenFor('root', 3600, 'ROLE_USER,ROLE_ADMIN'), 'root');
    renderAt('/');
    expect(screen.getByRole('link', { name: 'Statistics' })).toHaveAttribute('href', '/statistics');
  });

  it('sends a non-admin away from admin routes to /', async () => {
    login(tokenFor('alice', 3600), 'alice');
    const router = renderAt('/admin-only', [
      { path: '/', element: <p>home</p> },
      { element: <RequireAdmin />, children: [{ path: '/admin-only', element: <p>secret</p> }] },
    ]);
    await waitFor(() => expect(router.state.location.pathname).toBe('/'));
    cleanup();
    act(() => {
      logout();
      login(tokenFor('root', 3600, 'ROLE_USER,ROLE_ADMIN'), 'root');
    });
    const admin = renderAt('/admin-only', [
      { element: <RequireAdmin />, children: [{ path: '/admin-only', element: <p>secret</p> }] },
    ]);
    expect(admin.state.location.pathname).toBe('/admin-only');
    expect(screen.getByText('secret')).toBeInTheDocument();
  });

  it('sends a signed-in user away from /login and /register', async () => {
    login(tokenFor('alice', 3600), 'alice');
    const router = renderAt('/login');
    await waitFor(() => expect(router.state.location.pathname).toBe('/'));
    const again = renderAt('/register');
    await waitFor(() => expect(again.state.location.pathname).toBe('/'));
  });

  it('toggles the mobile menu and logs out to /', async () => {
    login(tokenFor('alice', 3600), 'alice');
    const router = renderAt('/settings');
    const toggle = screen.getByRole('button', { name: 'Open menu' });
    expect(toggle).toHaveAttribute('aria-expanded', 'false');
    fireEvent.click(toggle);
    expect(screen.getByRole('button', { name: 'Close menu' })).toHaveAttribute(
      'aria-expanded',
      'true',
    );
    act(() => {
      fireEvent.click(screen.getByRole('button', { name: 'Logout' }));
    });
    await waitFor(() => expect(router.state.location.pathname).toBe('/'));
    expect(localStorage.getItem('token')).toBeNull();
    expect(screen.getByRole('heading', { level: 1 })).toHaveTextContent('on one shelf');
  });
});

import { screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { login, logout } from '@/lib/session';
import { answering } from '@/test/fetch';
import { renderWithProviders } from '@/test/render';
import { tokenFor } from '@/test/tokens';
import { UsageSection } from './usage-section';

const fetchMock = vi.fn<typeof fetch>();
const json = (body: unknown) => new Response(JSON.stringify(body), { status: 200, headers: { 'Content-Type': 'application/json' } });

beforeEach(() => {
  fetchMock.mockReset();
  vi.stubGlobal('fetch', fetchMock);
  login(tokenFor('alice', 3600, 'ROLE_USER'), 'alice');
});
afterEach(() => {
  logout();
  vi.unstubAllGlobals();
});

describe('UsageSection', () => {
  it('shows storage and uploads against the quotas, with a bar where there is a limit', async () => {
    fetchMock.mockImplementation(
      answering(() => json({ storageBytes: 5 * 1048576, storageLimit: 10 * 1048576, uploadsToday: 3, uploadsPerDay: null })),
    );
    renderWithProviders(<UsageSection />);
    expect(await screen.findByText('5.00 MB of 10.00 MB')).toBeInTheDocument();
    expect(screen.getByText('3 of unlimited')).toBeInTheDocument();
    const bars = screen.getAllByRole('meter');
    expect(bars).toHaveLength(1);
    expect(bars[0]).toHaveAttribute('aria-valuenow', String(5 * 1048576));
  });
});

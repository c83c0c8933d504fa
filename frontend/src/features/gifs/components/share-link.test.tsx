import { act, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, expect, it, vi } from 'vitest';
import { clickAndSettle } from '@/test/fetch';
import { ShareLink } from './share-link';

beforeEach(() => vi.useFakeTimers());
afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

it('copies the link and shows "Copied!" for 2 seconds', async () => {
  const writeText = vi.fn().mockResolvedValue(undefined);
  vi.stubGlobal('navigator', { ...navigator, clipboard: { writeText } });
  render(<ShareLink url="http://example.test/s/abc" />);
  expect(screen.getByLabelText('Share this GIF')).toHaveAttribute('readOnly');
  await clickAndSettle(screen.getByRole('button', { name: 'Copy' }));
  expect(writeText).toHaveBeenCalledWith('http://example.test/s/abc');
  expect(screen.getByRole('button', { name: 'Copied!' })).toBeInTheDocument();
  act(() => {
    vi.advanceTimersByTime(1999);
  });
  expect(screen.getByRole('button', { name: 'Copied!' })).toBeInTheDocument();
  act(() => {
    vi.advanceTimersByTime(1);
  });
  expect(screen.getByRole('button', { name: 'Copy' })).toBeInTheDocument();
});

it('falls back to select + execCommand without the clipboard API', async () => {
  vi.stubGlobal('navigator', { ...navigator, clipboard: undefined });
  const execCommand = vi.fn().mockReturnValue(true);
  Object.defineProperty(document, 'execCommand', { value: execCommand, configurable: true });
  render(<ShareLink url="http://example.test/s/abc" />);
  await clickAndSettle(screen.getByRole('button', { name: 'Copy' }));
  expect(execCommand).toHaveBeenCalledWith('copy');
  expect(screen.getByRole('button', { name: 'Copied!' })).toBeInTheDocument();
});

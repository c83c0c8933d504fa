import { act, renderHook, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { DEFAULT_CHART_COLORS } from '../chart-options';
import { useChartColors } from './use-chart-colors';

const root = document.documentElement;

afterEach(() => {
  root.removeAttribute('data-theme');
  root.style.removeProperty('--color-text');
});

describe('useChartColors', () => {
  it('reads the theme variables, and again when the theme changes', async () => {
    root.setAttribute('data-theme', 'light');
    const { result } = renderHook(() => useChartColors());
    expect(result.current).toEqual(DEFAULT_CHART_COLORS);

    act(() => {
      root.style.setProperty('--color-text', '#eeeeff');
      root.setAttribute('data-theme', 'dark');
    });
    await waitFor(() => expect(result.current.text).toBe('#eeeeff'));
    expect(result.current.muted).toBe(DEFAULT_CHART_COLORS.muted);
  });

  it('keeps the same colours object while the theme stays the same', async () => {
    root.setAttribute('data-theme', 'dark');
    const { result } = renderHook(() => useChartColors());
    const first = result.current;
    // Observers hear of a change in the order they were made: when this one has, the hook's has.
    const observed = new Promise<void>((resolve) => {
      const observer = new MutationObserver(() => {
        observer.disconnect();
        resolve();
      });
      observer.observe(root, { attributes: true, attributeFilter: ['data-theme'] });
    });
    await act(async () => {
      root.style.setProperty('--color-text', '#eeeeff');
      root.setAttribute('data-theme', 'dark');
      await observed;
    });
    expect(result.current).toBe(first);
    expect(result.current.text).toBe(DEFAULT_CHART_COLORS.text);
  });
});

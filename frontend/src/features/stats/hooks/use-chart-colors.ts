import { useEffect, useMemo, useState } from 'react';
import { prefersReducedMotion } from '@/lib/reduced-motion';
import { DEFAULT_CHART_COLORS, type ChartColors } from '../chart-options';

function cssVariable(name: string, fallback: string): string {
  const value = getComputedStyle(document.documentElement).getPropertyValue(name).trim();
  return value || fallback;
}

/** The chart colours of the current theme, read from the CSS variables. */
export function readChartColors(): ChartColors {
  return {
    text: cssVariable('--color-text', DEFAULT_CHART_COLORS.text),
    muted: cssVariable('--color-text-muted', DEFAULT_CHART_COLORS.muted),
    grid: cssVariable('--color-border', DEFAULT_CHART_COLORS.grid),
    surface: cssVariable('--color-surface-raised', DEFAULT_CHART_COLORS.surface),
    primary: cssVariable('--color-primary', DEFAULT_CHART_COLORS.primary),
    accent: cssVariable('--color-accent', DEFAULT_CHART_COLORS.accent),
  };
}

/** The `data-theme` of <html>, followed live (the theme switcher and the OS preference set it). */
function useThemeAttribute(): string {
  const read = () => document.documentElement.getAttribute('data-theme') ?? '';
  const [theme, setTheme] = useState(read);
  useEffect(() => {
    const observer = new MutationObserver(() => setTheme(read()));
    observer.observe(document.documentElement, { attributes: true, attributeFilter: ['data-theme'] });
    setTheme(read());
    return () => observer.disconnect();
  }, []);
  return theme;
}

/** Chart colours, recomputed whenever the theme changes, so charts stay readable in both themes. */
export function useChartColors(): ChartColors {
  const theme = useThemeAttribute();
  // The theme is what changes the variables: read them again when it changes.
  return useMemo(() => readChartColors(), [theme]);
}

/** False when the user asks for reduced motion: charts then draw without animation. */
export function useChartAnimation(): boolean {
  return useMemo(() => !prefersReducedMotion(), []);
}

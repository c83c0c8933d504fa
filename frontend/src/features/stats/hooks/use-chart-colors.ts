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

const themeAttribute = () => document.documentElement.getAttribute('data-theme') ?? '';

type ThemedColors = { theme: string; colors: ChartColors };

/** The colours of the current theme; the same object as `previous` while the theme is the same. */
function themedColors(previous?: ThemedColors): ThemedColors {
  const theme = themeAttribute();
  return previous?.theme === theme ? previous : { theme, colors: readChartColors() };
}

/**
 * Chart colours, read again whenever the `data-theme` of <html> changes (the theme switcher and
 * the OS preference set it), so charts stay readable in both themes.
 */
export function useChartColors(): ChartColors {
  const [themed, setThemed] = useState(themedColors);
  useEffect(() => {
    const observer = new MutationObserver(() => setThemed(themedColors));
    observer.observe(document.documentElement, { attributes: true, attributeFilter: ['data-theme'] });
    setThemed(themedColors);
    return () => observer.disconnect();
  }, []);
  return themed.colors;
}

/** False when the user asks for reduced motion: charts then draw without animation. */
export function useChartAnimation(): boolean {
  return useMemo(() => !prefersReducedMotion(), []);
}

import type { ActiveElement, Chart, ChartEvent } from 'chart.js';
import { describe, expect, it, vi } from 'vitest';
import { pairsToSeries } from './chart-data';
import { DEFAULT_CHART_COLORS, PIE_PALETTE, barData, barOptions, lineOptions, pieData, pieOptions } from './chart-options';

const series = pairsToSeries([['funny', '5'], ['cats', '3']]);
const colors = { ...DEFAULT_CHART_COLORS, muted: '#111111', grid: '#222222', text: '#333333', surface: '#444444' };
const event = {} as ChartEvent;
const at = (index: number) => [{ index, datasetIndex: 0 } as ActiveElement];

describe('chart options', () => {
  it('fills a 300 px box responsively and takes tick, grid and legend colours from the theme', () => {
    const bar = barOptions({ colors, series });
    expect(bar.responsive).toBe(true);
    expect(bar.maintainAspectRatio).toBe(false);
    expect(bar.scales?.x?.ticks?.color).toBe('#111111');
    expect(bar.scales?.y?.grid?.color).toBe('#222222');
    const pie = pieOptions({ colors, series });
    expect(pie.maintainAspectRatio).toBe(false);
    expect(pie.plugins?.legend?.labels?.color).toBe('#333333');
  });

  it('turns a click on an element into its server key', () => {
    const onSelect = vi.fn();
    const options = barOptions({ colors, series, onSelect });
    options.onClick?.(event, at(1), {} as Chart);
    expect(onSelect).toHaveBeenCalledWith('cats');
    options.onClick?.(event, [], {} as Chart);
    options.onClick?.(event, at(9), {} as Chart);
    expect(onSelect).toHaveBeenCalledTimes(1);
    const pie = pieOptions({ colors, series, onSelect });
    pie.onClick?.(event, at(0), {} as Chart);
    expect(onSelect).toHaveBeenLastCalledWith('funny');
  });

  it('has no click handler on charts that open nothing', () => {
    expect(barOptions({ colors, series }).onClick).toBeUndefined();
    expect(lineOptions({ colors, series }).onClick).toBeUndefined();
  });

  it('draws without animation when asked to', () => {
    expect(barOptions({ colors, series, animate: false }).animation).toBe(false);
  });

  it('builds bar data and pie data with the 6-colour palette', () => {
    expect(barData(series, 'GIFs', '#abcdef').datasets[0]).toMatchObject({ data: [5, 3], backgroundColor: '#abcdef' });
    const many = pairsToSeries(Array.from({ length: 8 }, (_, i) => [`t${i}`, '1'] as [string, string]));
    const pie = pieData(many, 'GIFs', colors).datasets[0];
    expect(PIE_PALETTE).toHaveLength(6);
    expect(pie?.backgroundColor).toEqual([...PIE_PALETTE, PIE_PALETTE[0], PIE_PALETTE[1]]);
    expect(pie?.borderColor).toBe('#444444');
  });
});

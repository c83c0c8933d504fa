/**
 * chart.js data and options for the statistics charts (spec §2, §9): 300 px tall responsive
 * boxes, colours read from the theme (see hooks/use-chart-colors), a 6-colour pie palette.
 */
import type { ChartData, ChartEvent, ChartOptions, ActiveElement, Chart } from 'chart.js';
import type { Series } from './chart-data';

export const CHART_HEIGHT = 300;

/** Six mid-tone colours that read on the light and the dark background alike. */
export const PIE_PALETTE = ['#7c5cff', '#ec4899', '#14b8a6', '#f59e0b', '#3b82f6', '#84cc16'] as const;

export type ChartColors = {
  /** Legend and title text. */
  text: string;
  /** Tick labels. */
  muted: string;
  /** Grid lines. */
  grid: string;
  /** Borders between pie slices: the card's background. */
  surface: string;
  primary: string;
  accent: string;
};

export const DEFAULT_CHART_COLORS: ChartColors = {
  text: '#17172b',
  muted: '#5d5d74',
  grid: '#e2e2ec',
  surface: '#ffffff',
  primary: '#6246ea',
  accent: '#e4458f',
};

export const paletteColor = (index: number): string => PIE_PALETTE[index % PIE_PALETTE.length] ?? PIE_PALETTE[0];

type ChartBehaviour = {
  colors: ChartColors;
  /** Called with the server key of the clicked bar, point or slice. */
  onSelect?: ((key: string) => void) | undefined;
  /** The series, for click keys and full tooltip titles. */
  series: Series;
  animate?: boolean;
};

function clickHandlers({ onSelect, series }: ChartBehaviour) {
  if (!onSelect) return {};
  return {
    onClick: (_event: ChartEvent, elements: ActiveElement[]) => {
      const index = elements[0]?.index;
      const key = index === undefined ? undefined : series.keys[index];
      if (key !== undefined) onSelect(key);
    },
    onHover: (_event: ChartEvent, elements: ActiveElement[], chart: Chart) => {
      chart.canvas.style.cursor = elements.length > 0 ? 'pointer' : 'default';
    },
  };
}

const tooltipTitle = (series: Series) => (items: Array<{ dataIndex: number }>) =>
  series.keys[items[0]?.dataIndex ?? -1] ?? '';

function cartesianOptions(behaviour: ChartBehaviour) {
  const { colors, series, animate = true } = behaviour;
  return {
    responsive: true,
    maintainAspectRatio: false,
    animation: animate ? { duration: 400 } : (false as const),
    plugins: {
      legend: { display: false },
      tooltip: { callbacks: { title: tooltipTitle(series) } },
    },
    scales: {
      x: {
        ticks: { color: colors.muted, autoSkip: true, maxRotation: 45 },
        grid: { color: colors.grid, display: false },
        border: { color: colors.grid },
      },
      y: {
        beginAtZero: true,
        ticks: { color: colors.muted, precision: 0 },
        grid: { color: colors.grid },
        border: { color: colors.grid },
      },
    },
    ...clickHandlers(behaviour),
  };
}

export const barOptions = (behaviour: ChartBehaviour): ChartOptions<'bar'> => cartesianOptions(behaviour);

export const lineOptions = (behaviour: ChartBehaviour): ChartOptions<'line'> => cartesianOptions(behaviour);

export function pieOptions(behaviour: ChartBehaviour): ChartOptions<'pie'> {
  const { colors, animate = true } = behaviour;
  return {
    responsive: true,
    maintainAspectRatio: false,
    animation: animate ? { duration: 400 } : false,
    plugins: {
      legend: {
        position: 'bottom',
        labels: { color: colors.text, boxWidth: 12, boxHeight: 12, padding: 12 },
      },
    },
    ...clickHandlers(behaviour),
  };
}

export function barData(series: Series, label: string, color: string): ChartData<'bar'> {
  return {
    labels: series.labels,
    datasets: [
      {
        label,
        data: series.values,
        backgroundColor: color,
        hoverBackgroundColor: color,
        borderRadius: 6,
        maxBarThickness: 56,
      },
    ],
  };
}

export function lineData(series: Series, label: string, colors: ChartColors): ChartData<'line'> {
  return {
    labels: series.labels,
    datasets: [
      {
        label,
        data: series.values,
        borderColor: colors.primary,
        backgroundColor: colors.primary,
        pointBackgroundColor: colors.primary,
        pointBorderColor: colors.surface,
        pointRadius: 4,
        pointHoverRadius: 6,
        borderWidth: 2,
        cubicInterpolationMode: 'monotone',
      },
    ],
  };
}

export function pieData(series: Series, label: string, colors: ChartColors): ChartData<'pie'> {
  return {
    labels: series.labels,
    datasets: [
      {
        label,
        data: series.values,
        backgroundColor: series.values.map((_, index) => paletteColor(index)),
        borderColor: colors.surface,
        borderWidth: 2,
        hoverOffset: 6,
      },
    ],
  };
}

import { useId, type ReactNode } from 'react';
import { CHART_HEIGHT } from '../chart-options';

type ChartPanelProps = {
  title: string;
  subtitle?: string;
  /** False shows "No data available" instead of the chart. */
  hasData: boolean;
  children: ReactNode;
};

/** A titled card holding one chart in a 300 px tall, full-width box (the chart fills it). */
export function ChartPanel({ title, subtitle, hasData, children }: ChartPanelProps) {
  const titleId = useId();
  return (
    <section className="stats-panel" aria-labelledby={titleId}>
      <h2 id={titleId} className="stats-panel__title">
        {title}
      </h2>
      {subtitle ? <p className="stats-panel__subtitle">{subtitle}</p> : null}
      <div className="stats-panel__chart" style={{ height: CHART_HEIGHT }}>
        {hasData ? children : <p className="state-line stats-panel__empty">No data available</p>}
      </div>
    </section>
  );
}

/** What a screen reader hears for a chart canvas: its title and every label with its value. */
export function chartSummary(title: string, labels: readonly string[], values: readonly number[]): string {
  const items = labels.map((label, index) => `${label}: ${values[index] ?? 0}`);
  return items.length > 0 ? `${title}. ${items.join(', ')}` : title;
}

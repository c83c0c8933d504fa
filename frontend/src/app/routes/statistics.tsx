import { Suspense, lazy } from 'react';

/**
 * The statistics dashboard is its own chunk: chart.js and react-chartjs-2 load only when an admin
 * opens /statistics, so the gallery bundle does not carry them.
 */
const StatisticsPage = lazy(
  () => import(/* webpackChunkName: "statistics" */ '@/features/stats/components/statistics-page'),
);

export function StatisticsRoute() {
  return (
    <Suspense
      fallback={
        <p className="state-line" role="status">
          Loading statistics...
        </p>
      }
    >
      <StatisticsPage />
    </Suspense>
  );
}

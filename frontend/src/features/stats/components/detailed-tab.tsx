import { useMemo } from 'react';
import { Bar, Line, Pie } from 'react-chartjs-2';
import type { DetailedStats } from '@/api/generated/DetailedStats';
import type { DetailKind } from '../api/query-keys';
import { bucketRows, bucketSeries, dailyUploadsSeries, distributionSeries, pairsToSeries } from '../chart-data';
import { barData, barOptions, lineData, lineOptions, paletteColor, pieData, pieOptions } from '../chart-options';
import { useChartAnimation, useChartColors } from '../hooks/use-chart-colors';
import { BucketTable } from './bucket-table';
import { ChartPanel, chartSummary } from './chart-panel';

type DetailedTabProps = {
  stats: DetailedStats;
  /** Opens a detail modal: a size range, an activity level or a content type. */
  onSelect: (kind: DetailKind, value: string) => void;
};

/** The Detailed Analysis tab (spec §2): five charts and two tables. */
export function DetailedTab({ stats, onSelect }: DetailedTabProps) {
  const colors = useChartColors();
  const animate = useChartAnimation();
  const daily = useMemo(() => dailyUploadsSeries(stats.dailyUploadsLastWeek), [stats.dailyUploadsLastWeek]);
  const tags = useMemo(() => distributionSeries(stats.tagDistribution), [stats.tagDistribution]);
  const activity = useMemo(() => pairsToSeries(stats.userActivityStats), [stats.userActivityStats]);
  const sizes = useMemo(() => bucketSeries(stats.sizeBuckets), [stats.sizeBuckets]);
  const types = useMemo(() => bucketSeries(stats.contentTypeStats), [stats.contentTypeStats]);
  const openSize = (range: string) => onSelect('size', range);
  const openActivity = (level: string) => onSelect('activity', level);
  const openType = (type: string) => onSelect('content-type', type);

  return (
    <>
      <div className="stats-grid">
        <ChartPanel title="Daily Uploads (Last 7 Days)" hasData={daily.values.length > 0}>
          <Line
            data={lineData(daily, 'Uploads', colors)}
            options={lineOptions({ colors, series: daily, animate })}
            role="img"
            aria-label={chartSummary('Daily Uploads (Last 7 Days)', daily.labels, daily.values)}
          />
        </ChartPanel>
        <ChartPanel title="Tag Distribution" hasData={tags.values.length > 0}>
          <Pie
            data={pieData(tags, 'GIFs', colors)}
            options={pieOptions({ colors, series: tags, animate })}
            role="img"
            aria-label={chartSummary('Tag Distribution', tags.labels, tags.values)}
          />
        </ChartPanel>
        <ChartPanel title="User Activity Distribution" hasData={activity.values.length > 0}>
          <Pie
            data={pieData(activity, 'Users', colors)}
            options={pieOptions({ colors, series: activity, onSelect: openActivity, animate })}
            role="img"
            aria-label={chartSummary('User Activity Distribution', activity.labels, activity.values)}
          />
        </ChartPanel>
        <ChartPanel title="GIF Size Distribution" hasData={sizes.values.length > 0}>
          <Bar
            data={barData(sizes, 'GIFs', paletteColor(4))}
            options={barOptions({ colors, series: sizes, onSelect: openSize, animate })}
            role="img"
            aria-label={chartSummary('GIF Size Distribution', sizes.labels, sizes.values)}
          />
        </ChartPanel>
        <ChartPanel title="Content Type Statistics" hasData={types.values.length > 0}>
          <Bar
            data={barData(types, 'GIFs', paletteColor(3))}
            options={barOptions({ colors, series: types, onSelect: openType, animate })}
            role="img"
            aria-label={chartSummary('Content Type Statistics', types.labels, types.values)}
          />
        </ChartPanel>
      </div>
      <div className="stats-grid">
        <BucketTable
          title="Size Distribution Details"
          firstColumn="Size Range"
          rows={bucketRows(stats.sizeBuckets)}
          onSelect={openSize}
        />
        <BucketTable
          title="Content Type Details"
          firstColumn="Type"
          rows={bucketRows(stats.contentTypeStats)}
          onSelect={openType}
        />
      </div>
    </>
  );
}

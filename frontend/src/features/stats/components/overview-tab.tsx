import { useMemo } from 'react';
import { Bar } from 'react-chartjs-2';
import type { OverviewStats } from '@/api/generated/OverviewStats';
import { mostViewedSeries, pairsToSeries } from '../chart-data';
import { barData, barOptions, paletteColor } from '../chart-options';
import { useChartAnimation, useChartColors } from '../hooks/use-chart-colors';
import { formatCount, formatDecimal, formatStorage } from '../stats-format';
import { ChartPanel, chartSummary } from './chart-panel';
import { StatCard } from './stat-card';

type OverviewTabProps = {
  stats: OverviewStats;
  /** A click on a "Most Used Tags" bar: open the tag's detail modal. */
  onSelectTag: (tag: string) => void;
};

/** The Overview tab (spec §2): stat cards and four bar charts. */
export function OverviewTab({ stats, onSelectTag }: OverviewTabProps) {
  const colors = useChartColors();
  const animate = useChartAnimation();
  const tags = useMemo(() => pairsToSeries(stats.mostUsedTags), [stats.mostUsedTags]);
  const users = useMemo(() => pairsToSeries(stats.topUsers), [stats.topUsers]);
  const viewed = useMemo(() => mostViewedSeries(stats.mostViewedGifs), [stats.mostViewedGifs]);
  const favourited = useMemo(() => mostViewedSeries(stats.mostFavouritedGifs), [stats.mostFavouritedGifs]);
  const shared = useMemo(() => mostViewedSeries(stats.mostSharedGifs), [stats.mostSharedGifs]);

  return (
    <>
      <OverviewCards stats={stats} />

      <div className="stats-grid">
        <ChartPanel
          title="Most Used Tags"
          subtitle="Click on bars to see GIFs with this tag"
          hasData={tags.values.length > 0}
        >
          <Bar
            data={barData(tags, 'GIFs', paletteColor(0))}
            options={barOptions({ colors, series: tags, onSelect: onSelectTag, animate })}
            role="img"
            aria-label={chartSummary('Most Used Tags', tags.labels, tags.values)}
          />
        </ChartPanel>
        <ChartPanel title="Top Users by GIF Count" hasData={users.values.length > 0}>
          <Bar
            data={barData(users, 'GIFs', paletteColor(1))}
            options={barOptions({ colors, series: users, animate })}
            role="img"
            aria-label={chartSummary('Top Users by GIF Count', users.labels, users.values)}
          />
        </ChartPanel>
        <ChartPanel title="Most Viewed GIFs" hasData={viewed.values.length > 0}>
          <Bar
            data={barData(viewed, 'Views', paletteColor(2))}
            options={barOptions({ colors, series: viewed, animate })}
            role="img"
            aria-label={chartSummary('Most Viewed GIFs', viewed.keys, viewed.values)}
          />
        </ChartPanel>
        <ChartPanel title="Most Favourited GIFs" hasData={favourited.values.length > 0}>
          <Bar
            data={barData(favourited, 'Favourites', paletteColor(3))}
            options={barOptions({ colors, series: favourited, animate })}
            role="img"
            aria-label={chartSummary('Most Favourited GIFs', favourited.keys, favourited.values)}
          />
        </ChartPanel>
        <ChartPanel title="Most Shared GIFs" hasData={shared.values.length > 0}>
          <Bar
            data={barData(shared, 'Shares', paletteColor(4))}
            options={barOptions({ colors, series: shared, animate })}
            role="img"
            aria-label={chartSummary('Most Shared GIFs', shared.keys, shared.values)}
          />
        </ChartPanel>
      </div>
    </>
  );
}

/** The Overview's stat cards: totals, averages, storage and recent activity. */
function OverviewCards({ stats }: { stats: OverviewStats }) {
  return (
    <div className="stat-cards">
      <StatCard label="Total GIFs" value={formatCount(stats.totalGifs)} />
      <StatCard label="Total Users" value={formatCount(stats.totalUsers)} />
      <StatCard
        label="Total Tags"
        value={formatCount(stats.totalTags)}
        subtitle={`${formatCount(stats.emptyTagsCount)} empty`}
      />
      <StatCard label="Total Views" value={formatCount(stats.totalViews)} />
      <StatCard label="Total Shares" value={formatCount(stats.totalShares)} subtitle="Posted from chat apps" />
      <StatCard label="Avg Tags per GIF" value={formatDecimal(stats.averageTagsPerGif)} />
      <StatCard label="Avg GIFs per User" value={formatDecimal(stats.averageGifsPerUser)} />
      <StatCard label="Avg Views per GIF" value={formatDecimal(stats.averageViewsPerGif)} />
      <StatCard
        label="Total Storage"
        value={formatStorage(stats.totalContentSizeBytes)}
        subtitle={`${formatDecimal(stats.totalContentSizeMB)} MB`}
      />
      <StatCard
        label="Recent Activity"
        value={formatCount(stats.gifsUploadedToday)}
        subtitle={`Today | ${formatCount(stats.gifsUploadedThisWeek)} this week`}
      />
    </div>
  );
}

import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import type { OverviewStats } from '@/api/generated/OverviewStats';
import { Link } from 'react-router-dom';
import { paths } from '@/app/paths';
import { errorMessage } from '@/lib/api-client';
import { formatDateTime } from '@/lib/format';
import { detailedStatsQueryOptions, getDetailedStats, useDetailedStats } from '../api/get-detailed-stats';
import { getOverviewStats, overviewStatsQueryOptions, useOverviewStats } from '../api/get-overview-stats';
import type { DetailKind, DetailTarget } from '../api/query-keys';
import '../chart-setup';
import { useClearStatsOnLeave } from '../hooks/use-clear-stats-on-leave';
import { statsSummary } from '../stats-format';
import { DetailModal } from './detail-modal';
import { DetailedTab } from './detailed-tab';
import { OverviewTab } from './overview-tab';
import { StatsError } from './stats-error';
import { StatsTabs, panelId, tabId, type StatsTab } from './stats-tabs';
import './stats.css';

const Loading = () => (
  <p className="state-line" role="status">
    Loading statistics...
  </p>
);

/**
 * The admin statistics dashboard (spec §2, §4): overview and detailed tabs, refresh, error view
 * with retry, and the detail modals. Loaded lazily with chart.js (see app/routes/statistics.tsx).
 */
export function StatisticsPage() {
  useClearStatsOnLeave();
  const [tab, setTab] = useState<StatsTab>('overview');
  const [detailedRequested, setDetailedRequested] = useState(false);
  const [detail, setDetail] = useState<DetailTarget | null>(null);
  const overview = useOverviewStats();
  const detailed = useDetailedStats(detailedRequested);

  const refresh = useRefreshStats(detailedRequested);
  const refreshing = overview.isFetching || detailed.isFetching;
  const selectTab = (next: StatsTab) => {
    setTab(next);
    if (next === 'detailed') setDetailedRequested(true);
  };
  const open = (kind: DetailKind, value: string) => setDetail({ kind, value });

  const overviewLoading = overview.isPending || (overview.isError && overview.isFetching);
  const detailedLoading = detailed.isPending || (detailed.isError && detailed.isFetching);

  return (
    <div className="stats">
      <StatsHeader overview={overview.data} refreshing={refreshing} onRefresh={refresh} />

      {overviewLoading ? (
        <Loading />
      ) : overview.isError ? (
        <StatsError
          message={errorMessage(overview.error, 'Failed to fetch application stats')}
          onRetry={() => void overview.refetch()}
        />
      ) : (
        <>
          <StatsTabs selected={tab} onSelect={selectTab} />
          <div
            role="tabpanel"
            id={panelId('overview')}
            aria-labelledby={tabId('overview')}
            hidden={tab !== 'overview'}
            className="stats-tabpanel"
          >
            {tab === 'overview' ? <OverviewTab stats={overview.data} onSelectTag={(tag) => open('tag', tag)} /> : null}
          </div>
          <div
            role="tabpanel"
            id={panelId('detailed')}
            aria-labelledby={tabId('detailed')}
            hidden={tab !== 'detailed'}
            className="stats-tabpanel"
          >
            {tab !== 'detailed' ? null : detailedLoading ? (
              <Loading />
            ) : detailed.isError ? (
              <StatsError
                message={errorMessage(detailed.error, 'Failed to fetch detailed stats')}
                onRetry={() => {
                  void overview.refetch();
                  void detailed.refetch();
                }}
              />
            ) : (
              <DetailedTab stats={detailed.data} onSelect={open} />
            )}
          </div>
        </>
      )}

      {detail ? <DetailModal target={detail} onClose={() => setDetail(null)} /> : null}
    </div>
  );
}

type StatsHeaderProps = {
  overview: OverviewStats | undefined;
  refreshing: boolean;
  onRefresh: () => void;
};

function StatsHeader({ overview, refreshing, onRefresh }: StatsHeaderProps) {
  return (
    <header className="stats-header">
      <div className="stats-header__text">
        <h1 className="page-title stats-header__title">Application Statistics</h1>
        <p className="stats-header__subtitle">Analytics and insights</p>
        {overview?.lastUpdated ? (
          <p className="stats-header__updated">
            Last updated: <time dateTime={overview.lastUpdated}>{formatDateTime(overview.lastUpdated)}</time>
          </p>
        ) : null}
      </div>
      <div className="stats-header__aside">
        {overview ? <p className="stats-header__summary">{statsSummary(overview)}</p> : null}
        <Link to={paths.duplicates} className="btn btn--secondary">
          Review near duplicates
        </Link>
        <Link to={paths.members} className="btn btn--secondary">
          Members
        </Link>
        <Link to={paths.moderation} className="btn btn--secondary">
          Moderation
        </Link>
        <Link to={paths.audit} className="btn btn--secondary">
          Audit log
        </Link>
        <button type="button" className="btn btn--primary" disabled={refreshing} onClick={onRefresh}>
          {refreshing ? 'Refreshing...' : 'Refresh Data'}
        </button>
      </div>
    </header>
  );
}

/**
 * Refresh Data: every read is exact; this reads the figures again (`?refresh=true`), into the same
 * queries (the detailed ones only once the Detailed tab has asked for them).
 */
function useRefreshStats(detailedRequested: boolean) {
  const queryClient = useQueryClient();
  return () => {
    void queryClient
      .fetchQuery({ ...overviewStatsQueryOptions(), queryFn: ({ signal }) => getOverviewStats(signal, true), staleTime: 0 })
      .catch(() => undefined);
    if (detailedRequested) {
      void queryClient
        .fetchQuery({ ...detailedStatsQueryOptions(), queryFn: ({ signal }) => getDetailedStats(signal, true), staleTime: 0 })
        .catch(() => undefined);
    }
  };
}

export default StatisticsPage;

import { queryOptions, useQuery } from '@tanstack/react-query';
import type { OverviewStats } from '@/api/generated/OverviewStats';
import { apiRequest } from '@/lib/api-client';
import { statsKeys } from './query-keys';

/** GET /api/stats → the overview statistics (admin only), exact on every read; `fresh` adds `?refresh=true` (Refresh Data). */
export const getOverviewStats = (signal?: AbortSignal, fresh = false) =>
  apiRequest<OverviewStats>(fresh ? '/api/stats?refresh=true' : '/api/stats', {
    defaultError: 'Failed to fetch application stats',
    ...(signal ? { signal } : {}),
  });

export const overviewStatsQueryOptions = () =>
  queryOptions({
    queryKey: statsKeys.overview(),
    queryFn: ({ signal }) => getOverviewStats(signal),
  });

export const useOverviewStats = () => useQuery(overviewStatsQueryOptions());

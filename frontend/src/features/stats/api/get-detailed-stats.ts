import { queryOptions, useQuery } from '@tanstack/react-query';
import type { DetailedStats } from '@/api/generated/DetailedStats';
import { apiRequest } from '@/lib/api-client';
import { statsKeys } from './query-keys';

/** GET /api/stats/detailed → the detailed statistics (admin only), exact on every read; `fresh` adds `?refresh=true` (Refresh Data). */
export const getDetailedStats = (signal?: AbortSignal, fresh = false) =>
  apiRequest<DetailedStats>(fresh ? '/api/stats/detailed?refresh=true' : '/api/stats/detailed', {
    defaultError: 'Failed to fetch detailed stats',
    ...(signal ? { signal } : {}),
  });

export const detailedStatsQueryOptions = () =>
  queryOptions({
    queryKey: statsKeys.detailed(),
    queryFn: ({ signal }) => getDetailedStats(signal),
  });

/** Loaded only once the Detailed tab has been opened (`enabled`). */
export const useDetailedStats = (enabled: boolean) =>
  useQuery({ ...detailedStatsQueryOptions(), enabled });

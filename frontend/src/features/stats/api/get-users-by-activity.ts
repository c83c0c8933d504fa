import { queryOptions } from '@tanstack/react-query';
import type { UserStatRow } from '@/api/generated/UserStatRow';
import { apiRequest } from '@/lib/api-client';
import { loadDetailRows } from './detail-rows';
import { statsKeys } from './query-keys';

/** GET /api/stats/detailed/activity/{level} → the users of an activity level (inactive, casual, active, power). */
export const getUsersByActivity = (level: string, signal?: AbortSignal) =>
  apiRequest<UserStatRow[]>(`/api/stats/detailed/activity/${encodeURIComponent(level)}`, signal ? { signal } : {});

export const usersByActivityQueryOptions = (level: string) =>
  queryOptions({
    queryKey: statsKeys.detail({ kind: 'activity', value: level }),
    queryFn: ({ signal }) => loadDetailRows('activity', getUsersByActivity(level, signal)),
    staleTime: 0,
    retry: false,
  });

import { queryOptions, useQuery } from '@tanstack/react-query';
import type { ProfileDto } from '@/api/generated/ProfileDto';
import { apiRequest } from '@/lib/api-client';
import { settingsKeys } from './query-keys';

/** GET /api/settings/profile → the signed-in user's {username, email}. */
export const getProfile = (signal?: AbortSignal) =>
  apiRequest<ProfileDto>('/api/settings/profile', signal ? { signal } : {});

export const profileQueryOptions = () =>
  queryOptions({
    queryKey: settingsKeys.profile(),
    queryFn: ({ signal }) => getProfile(signal),
  });

export const useProfile = () => useQuery(profileQueryOptions());

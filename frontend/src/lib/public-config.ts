import { queryOptions, useQuery } from '@tanstack/react-query';
import type { PublicConfig } from '@/api/generated/PublicConfig';
import { apiRequest } from './api-client';

/** GET /api/config — public: what the server offers (third-party sign-in, upload limit). */
export const getPublicConfig = (signal?: AbortSignal) =>
  apiRequest<PublicConfig>('/api/config', { requiresAuth: false, ...(signal ? { signal } : {}) });

export const publicConfigQueryOptions = () =>
  queryOptions({
    queryKey: ['config'] as const,
    queryFn: ({ signal }) => getPublicConfig(signal),
    staleTime: Infinity,
    retry: false,
  });

export const usePublicConfig = () => useQuery(publicConfigQueryOptions());

import { useQuery } from '@tanstack/react-query';
import type { UsageDto } from '@/api/generated/UsageDto';
import { apiRequest } from '@/lib/api-client';

export const MSG_LOAD_USAGE_FAILED = 'Failed to load your usage';

/** GET /api/settings/usage: what you store and uploaded today, and your quotas (null: unlimited). */
export const useUsage = () =>
  useQuery({
    queryKey: ['settings', 'usage'] as const,
    queryFn: ({ signal }) => apiRequest<UsageDto>('/api/settings/usage', { defaultError: MSG_LOAD_USAGE_FAILED, signal }),
  });

import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { statsKeys } from '../api/query-keys';

/** Leaving the statistics screen clears the stats state (spec §4): every stats query is removed. */
export function useClearStatsOnLeave(): void {
  const queryClient = useQueryClient();
  useEffect(() => () => queryClient.removeQueries({ queryKey: statsKeys.all }), [queryClient]);
}

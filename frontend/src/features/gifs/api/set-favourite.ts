import { useMutation, useQueryClient, type QueryKey } from '@tanstack/react-query';
import type { FavouriteStateDto } from '@/api/generated/FavouriteStateDto';
import { useToast } from '@/components/toast/toast-provider';
import { apiRequest, errorMessage } from '@/lib/api-client';
import { applyFavourite, staleFavouriteLists } from '../gif-list-cache';
import { gifKeys } from './query-keys';

export type SetFavourite = { id: number; on: boolean };

/** PUT (star) or DELETE (unstar) /api/gifs/{id}/favourite → the state afterwards; both idempotent. */
export const setFavourite = ({ id, on }: SetFavourite) =>
  apiRequest<FavouriteStateDto>(`/api/gifs/${id}/favourite`, {
    method: on ? 'PUT' : 'DELETE',
    defaultError: 'Failed to update favourites',
  });

export const MSG_FAVOURITE_FAILED = 'Could not update your favourites. Please try again.';

/** A star shows at once; on failure every cached copy goes back and an error toast says so. */
export function useSetFavourite() {
  const queryClient = useQueryClient();
  const toast = useToast();
  return useMutation({
    mutationFn: setFavourite,
    onMutate: async ({ id, on }: SetFavourite) => {
      await queryClient.cancelQueries({ queryKey: gifKeys.all });
      const snapshot: Array<[QueryKey, unknown]> = queryClient.getQueriesData({ queryKey: gifKeys.all });
      applyFavourite(queryClient, id, on);
      return { snapshot };
    },
    onError: (error, _change, context) => {
      for (const [key, data] of context?.snapshot ?? []) queryClient.setQueryData(key, data);
      toast.error(errorMessage(error, MSG_FAVOURITE_FAILED));
    },
    onSuccess: (state, { id }) => applyFavourite(queryClient, id, state.favourite, state.favouriteCount),
    onSettled: () => staleFavouriteLists(queryClient),
  });
}

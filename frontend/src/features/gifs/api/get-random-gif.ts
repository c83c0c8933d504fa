import type { GifDto } from '@/api/generated/GifDto';
import { apiRequest } from '@/lib/api-client';
import type { RandomScope } from '../gallery';

/** The query of a random pick: at most one of tag, user and q. */
export function randomQuery(scope: RandomScope): string {
  const params = new URLSearchParams();
  if (scope.tag) params.set('tag', scope.tag);
  else if (scope.user) params.set('user', scope.user);
  else if (scope.q) params.set('q', scope.q);
  const query = params.toString();
  return query ? `?${query}` : '';
}

/** GET /api/gifs/random?tag|user|q → a GIF, each as likely as any other; 404 when none matches. */
export const getRandomGif = (scope: RandomScope) =>
  apiRequest<GifDto>(`/api/gifs/random${randomQuery(scope)}`, { defaultError: 'Failed to pick a GIF' });

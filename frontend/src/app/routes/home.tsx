import { TagCloudPage } from '@/features/tags/components/tag-cloud-page';
import { useIsAuthenticated } from '@/lib/session';
import { Welcome } from './welcome';

/** `/`: the welcome view when signed out (no API call), the tag cloud when signed in (spec §2). */
export function HomeRoute() {
  return useIsAuthenticated() ? <TagCloudPage /> : <Welcome />;
}

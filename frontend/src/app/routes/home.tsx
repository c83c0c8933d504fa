import { useIsAuthenticated } from '@/lib/session';
import { HomeSignedIn } from './home-signed-in';
import { Welcome } from './welcome';

/** `/`: the welcome view when signed out, the signed-in home otherwise. */
export function HomeRoute() {
  return useIsAuthenticated() ? <HomeSignedIn /> : <Welcome />;
}

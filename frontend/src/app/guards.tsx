import { Navigate, Outlet } from 'react-router-dom';
import { useIsAdmin, useIsAuthenticated } from '@/lib/session';
import { paths } from './paths';

/** Signed-in routes: an unauthenticated visitor goes to /login. */
export function RequireAuth() {
  const isAuthenticated = useIsAuthenticated();
  return isAuthenticated ? <Outlet /> : <Navigate to={paths.login} replace />;
}

/** Admin routes: signed out → /login; signed in without ADMIN → /. */
export function RequireAdmin() {
  const isAuthenticated = useIsAuthenticated();
  const isAdmin = useIsAdmin();
  if (!isAuthenticated) return <Navigate to={paths.login} replace />;
  return isAdmin ? <Outlet /> : <Navigate to={paths.home} replace />;
}

/** Login and register: a signed-in user is sent to /. */
export function RedirectIfAuthenticated() {
  const isAuthenticated = useIsAuthenticated();
  return isAuthenticated ? <Navigate to={paths.home} replace /> : <Outlet />;
}

import { useState } from 'react';
import { RouterProvider, createBrowserRouter } from 'react-router-dom';
import { createQueryClient } from '@/lib/query-client';
import { setNavigate } from '@/lib/navigation';
import { prefetchLanding } from './landing-data';
import { AppProviders } from './providers';
import { routes } from './routes';

export function createAppRouter() {
  const router = createBrowserRouter(routes);
  setNavigate((to) => void router.navigate(to));
  return router;
}

function createLandingQueryClient() {
  const client = createQueryClient();
  prefetchLanding(client, window.location);
  return client;
}

export function App() {
  const [client] = useState(createLandingQueryClient);
  const [router] = useState(createAppRouter);
  return (
    <AppProviders client={client}>
      <RouterProvider router={router} />
    </AppProviders>
  );
}

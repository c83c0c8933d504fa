import { Navigate, type RouteObject } from 'react-router-dom';
import { LoginPage } from '@/features/auth/components/login-page';
import { RegisterPage } from '@/features/auth/components/register-page';
import { CollectionPage } from '@/features/collections/components/collection-page';
import { CollectionsPage } from '@/features/collections/components/collections-page';
import { GalleryPage } from '@/features/gifs/components/gallery-page';
import { DuplicatesPage } from '@/features/gifs/components/duplicates-page';
import { GifDetailPage } from '@/features/gifs/components/gif-detail-page';
import { UploadPage } from '@/features/gifs/components/upload-page';
import { SettingsPage } from '@/features/settings/components/settings-page';
import { TagCloudPage } from '@/features/tags/components/tag-cloud-page';
import { TagsPage } from '@/features/tags/components/tags-page';
import { RedirectIfAuthenticated, RequireAdmin, RequireAuth } from './guards';
import { AppLayout } from './layout/app-layout';
import { paths } from './paths';
import { HomeRoute } from './routes/home';
import { StatisticsRoute } from './routes/statistics';

/** The route table of spec §2 (screens arrive feature by feature; unknown paths go to /). */
export const routes: RouteObject[] = [
  {
    element: <AppLayout />,
    children: [
      { path: paths.home, element: <HomeRoute /> },
      {
        element: <RedirectIfAuthenticated />,
        children: [
          { path: paths.login, element: <LoginPage /> },
          { path: paths.register, element: <RegisterPage /> },
        ],
      },
      {
        element: <RequireAuth />,
        children: [
          { path: paths.gifs, element: <GalleryPage /> },
          { path: '/gifs/:id', element: <GifDetailPage /> },
          { path: paths.tags, element: <TagsPage /> },
          { path: paths.tagCloud, element: <TagCloudPage /> },
          { path: '/tags/:tagName', element: <GalleryPage /> },
          { path: '/user/:username', element: <GalleryPage /> },
          { path: paths.collections, element: <CollectionsPage /> },
          { path: '/collections/:id', element: <CollectionPage /> },
          { path: paths.favourites, element: <GalleryPage key="favourites" favourites /> },
          { path: paths.upload, element: <UploadPage /> },
          { path: paths.settings, element: <SettingsPage /> },
        ],
      },
      {
        // Admin-only screens: the statistics dashboard (a lazily loaded chunk) and near duplicates.
        element: <RequireAdmin />,
        children: [
          { path: paths.statistics, element: <StatisticsRoute /> },
          { path: paths.duplicates, element: <DuplicatesPage /> },
        ],
      },
      { path: '*', element: <Navigate to={paths.home} replace /> },
    ],
  },
];

import { Navigate, type RouteObject } from 'react-router-dom';
import { GalleryPage } from '@/features/gifs/components/gallery-page';
import { TagCloudPage } from '@/features/tags/components/tag-cloud-page';
import { RedirectIfAuthenticated, RequireAdmin, RequireAuth } from './guards';
import { AppLayout } from './layout/app-layout';
import { paths } from './paths';
import { HomeRoute } from './routes/home';
import { JoinRoute } from './routes/join';
import { ResetRoute } from './routes/reset';
import {
  AuditPage,
  CollectionPage,
  CollectionsPage,
  DuplicatesPage,
  GifDetailPage,
  LoginPage,
  MakePage,
  MembersPage,
  ModerationPage,
  RegisterPage,
  SettingsPage,
  TagsPage,
  UploadPage,
} from './routes/lazy-pages';
import { StatisticsRoute } from './routes/statistics';

/**
 * The route table of spec §2 (unknown paths go to /). The home screens and the gallery are in the
 * main bundle; every other screen is a chunk loaded with its route (`routes/lazy-pages.tsx`).
 */
export const routes: RouteObject[] = [
  {
    element: <AppLayout />,
    children: [
      { path: paths.home, element: <HomeRoute /> },
      // Public: whoever holds the link, signed in or not.
      { path: paths.resetPattern, element: <ResetRoute /> },
      {
        element: <RedirectIfAuthenticated />,
        children: [
          { path: paths.login, element: <LoginPage /> },
          { path: paths.register, element: <RegisterPage /> },
          { path: paths.joinPattern, element: <JoinRoute /> },
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
          { path: paths.make, element: <MakePage /> },
          { path: paths.settings, element: <SettingsPage /> },
        ],
      },
      {
        // Admin-only screens: the statistics dashboard (a lazily loaded chunk) and near duplicates.
        element: <RequireAdmin />,
        children: [
          { path: paths.statistics, element: <StatisticsRoute /> },
          { path: paths.duplicates, element: <DuplicatesPage /> },
          { path: paths.members, element: <MembersPage /> },
          { path: paths.audit, element: <AuditPage /> },
          { path: paths.moderation, element: <ModerationPage /> },
        ],
      },
      { path: '*', element: <Navigate to={paths.home} replace /> },
    ],
  },
];

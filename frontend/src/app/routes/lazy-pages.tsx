import { useQueryClient } from '@tanstack/react-query';
import { Suspense, lazy, type ComponentType, type ReactNode } from 'react';
import { useParams } from 'react-router-dom';
import { gifQueryOptions } from '@/features/gifs/api/get-gif';

/**
 * The screens a first visit to `/` or `/gifs` does not need, each a chunk loaded when its route is
 * first shown (route-level code splitting). The home screens (welcome, tag cloud) and the gallery
 * stay in the main bundle: they are where visits land, and a chunk would only delay them. Router
 * navigations are transitions, so within the app the previous screen stays until the next one's
 * chunk has arrived; on a first load `fallback` shows meanwhile.
 */
function lazyPage(load: () => Promise<ComponentType>, fallback: ReactNode = null) {
  const Page = lazy(() => load().then((component) => ({ default: component })));
  return function LazyPage() {
    return (
      <Suspense fallback={fallback}>
        <Page />
      </Suspense>
    );
  };
}

export const LoginPage = lazyPage(() =>
  import(/* webpackChunkName: "auth" */ '@/features/auth/components/login-page').then((m) => m.LoginPage),
);
const LazyRegisterPage = lazy(() =>
  import(/* webpackChunkName: "auth" */ '@/features/auth/components/register-page').then((m) => ({
    default: m.RegisterPage,
  })),
);
/** The register screen; `invite`: the token of a /join link. */
export function RegisterPage({ invite }: { invite?: string }) {
  return (
    <Suspense fallback={null}>
      <LazyRegisterPage {...(invite ? { invite } : {})} />
    </Suspense>
  );
}
const LazyResetPasswordPage = lazy(() =>
  import(/* webpackChunkName: "auth" */ '@/features/auth/components/reset-password-page').then((m) => ({
    default: m.ResetPasswordPage,
  })),
);
/** The password reset screen of a /reset link. */
export function ResetPasswordPage({ token }: { token: string }) {
  return (
    <Suspense fallback={null}>
      <LazyResetPasswordPage token={token} />
    </Suspense>
  );
}
export const MembersPage = lazyPage(() =>
  import(/* webpackChunkName: "members" */ './members').then((m) => m.MembersPage),
);
export const CollectionsPage = lazyPage(() =>
  import(/* webpackChunkName: "collections" */ '@/features/collections/components/collections-page').then(
    (m) => m.CollectionsPage,
  ),
);
export const CollectionPage = lazyPage(() =>
  import(/* webpackChunkName: "collections" */ '@/features/collections/components/collection-page').then(
    (m) => m.CollectionPage,
  ),
);
export const UploadPage = lazyPage(() =>
  import(/* webpackChunkName: "upload" */ '@/features/gifs/components/upload-page').then((m) => m.UploadPage),
);
export const MakePage = lazyPage(() =>
  import(/* webpackChunkName: "maker" */ '@/features/gifs/maker/make-page').then((m) => m.MakePage),
);
export const DuplicatesPage = lazyPage(() =>
  import(/* webpackChunkName: "duplicates" */ '@/features/gifs/components/duplicates-page').then(
    (m) => m.DuplicatesPage,
  ),
);
export const AuditPage = lazyPage(() =>
  import(/* webpackChunkName: "admin" */ '@/features/audit/components/audit-page').then((m) => m.AuditPage),
);
export const ModerationPage = lazyPage(() =>
  import(/* webpackChunkName: "admin" */ '@/features/moderation/components/moderation-page').then(
    (m) => m.ModerationPage,
  ),
);
export const SettingsPage = lazyPage(() =>
  import(/* webpackChunkName: "settings" */ './settings').then((m) => m.SettingsRoute),
);
export const TagsPage = lazyPage(() =>
  import(/* webpackChunkName: "tags" */ '@/features/tags/components/tags-page').then((m) => m.TagsPage),
);

const gifDetailPage = () =>
  import(/* webpackChunkName: "gif-detail" */ '@/features/gifs/components/gif-detail-page');

/** Starts loading the detail screen's chunk (a visit that lands on `/gifs/:id` does, at once). */
export const preloadGifDetailPage = (): void => void gifDetailPage().catch(() => undefined);

/** While its chunk loads, the detail screen shows what it shows while its GIF loads. */
const LazyGifDetailPage = lazyPage(
  () => gifDetailPage().then((m) => m.GifDetailPage),
  <p className="state-line" role="status">
    Loading GIF...
  </p>,
);

/**
 * `/gifs/:id`: asks for the GIF while the screen's chunk loads (the same query the screen reads,
 * so the GIF is fetched, and its view counted, once), rather than one after the other.
 */
export function GifDetailPage() {
  const { id } = useParams();
  const client = useQueryClient();
  if (id && /^\d+$/.test(id)) {
    const options = gifQueryOptions(Number(id));
    if (!client.getQueryState(options.queryKey)) void client.prefetchQuery(options);
  }
  return <LazyGifDetailPage />;
}

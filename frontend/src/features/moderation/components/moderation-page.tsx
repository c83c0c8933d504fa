import { useState } from 'react';
import { Link } from 'react-router-dom';
import type { GifDto } from '@/api/generated/GifDto';
import type { ReportDto } from '@/api/generated/ReportDto';
import { paths } from '@/app/paths';
import { useToast } from '@/components/toast/toast-provider';
import { gifMedia } from '@/features/gifs/api/query-keys';
import { errorMessage } from '@/lib/api-client';
import { formatDateTime } from '@/lib/format';
import {
  MSG_LOAD_HIDDEN_FAILED,
  MSG_LOAD_REPORTS_FAILED,
  MSG_MODERATE_FAILED,
  useHiddenGifs,
  useOpenReports,
  useResolveReport,
  useSetGifHidden,
} from '../api/moderation';
import {
  MSG_GIF_HIDDEN,
  MSG_GIF_RESTORED,
  MSG_NO_HIDDEN,
  MSG_NO_REPORTS,
  MSG_REPORT_DISMISSED,
} from '../messages';
import { reasonLabel } from '../reasons';
import './moderation.css';

/**
 * /admin/moderation — the open reports, oldest first, each with its GIF's thumbnail and Hide /
 * Dismiss; below, the hidden GIFs with Restore.
 */
export function ModerationPage() {
  return (
    <section className="moderation" aria-labelledby="moderation-title">
      <h1 id="moderation-title" className="page-title">
        Moderation
      </h1>
      <p className="moderation__intro">
        Reports from members, oldest first. Hiding a GIF closes all its reports; only its owner and
        administrators still see it.
      </p>
      <OpenReports />
      <HiddenGifs />
    </section>
  );
}

function Pager({
  label,
  page,
  totalPages,
  hasPrevious,
  hasNext,
  onPage,
}: {
  label: string;
  page: number;
  totalPages: number;
  hasPrevious: boolean;
  hasNext: boolean;
  onPage: (page: number) => void;
}) {
  if (totalPages <= 1) return null;
  return (
    <nav className="moderation__pages" aria-label={label}>
      <button type="button" className="btn btn--secondary" disabled={!hasPrevious} onClick={() => onPage(page - 1)}>
        Previous
      </button>
      <span aria-live="polite">
        Page {page + 1} of {totalPages}
      </span>
      <button type="button" className="btn btn--secondary" disabled={!hasNext} onClick={() => onPage(page + 1)}>
        Next
      </button>
    </nav>
  );
}

/** What a page query of the moderation screen answers (the gallery's page shape). */
interface PageQuery<T> {
  data?: { content: T[]; totalElements: number; totalPages: number; hasPrevious: boolean; hasNext: boolean };
  isPending: boolean;
  isError: boolean;
  error: unknown;
  isPlaceholderData: boolean;
}

/** A titled, paged list of the screen with its loading, error and empty states. */
function PagedSection<T>({
  id,
  title,
  query,
  texts,
  page,
  onPage,
  row,
}: {
  id: string;
  title: string;
  query: PageQuery<T>;
  texts: { loading: string; failed: string; empty: string; pages: string };
  page: number;
  onPage: (page: number) => void;
  row: (item: T) => React.ReactNode;
}) {
  const data = query.data;
  return (
    <section className="moderation__section" aria-labelledby={id}>
      <h2 id={id} className="moderation__heading">
        {title}
        {data ? <span className="moderation__count">{data.totalElements}</span> : null}
      </h2>
      {query.isError ? (
        <p className="form-message form-message--error" role="alert">
          Error: {errorMessage(query.error, texts.failed)}
        </p>
      ) : query.isPending || !data ? (
        <p className="state-line" role="status">
          {texts.loading}
        </p>
      ) : data.content.length === 0 ? (
        <p className="gallery__empty" role="status">
          {texts.empty}
        </p>
      ) : (
        <>
          <ol className="moderation__list" aria-busy={query.isPlaceholderData}>
            {data.content.map(row)}
          </ol>
          <Pager
            label={texts.pages}
            page={page}
            totalPages={data.totalPages}
            hasPrevious={data.hasPrevious}
            hasNext={data.hasNext && !query.isPlaceholderData}
            onPage={onPage}
          />
        </>
      )}
    </section>
  );
}

function OpenReports() {
  const [page, setPage] = useState(0);
  const texts = {
    loading: 'Loading reports...',
    failed: MSG_LOAD_REPORTS_FAILED,
    empty: MSG_NO_REPORTS,
    pages: 'Report pages',
  };
  return (
    <PagedSection<ReportDto>
      id="open-reports-title"
      title="Open reports"
      query={useOpenReports(page)}
      texts={texts}
      page={page}
      onPage={setPage}
      row={(report) => <ReportRow key={report.id} report={report} />}
    />
  );
}

function ReportRow({ report }: { report: ReportDto }) {
  const resolve = useResolveReport();
  const toast = useToast();
  const act = (action: 'hide' | 'dismiss') =>
    resolve.mutate(
      { id: report.id, action },
      {
        onSuccess: () => toast.success(action === 'hide' ? MSG_GIF_HIDDEN : MSG_REPORT_DISMISSED),
        onError: (error) => toast.error(errorMessage(error, MSG_MODERATE_FAILED)),
      },
    );
  return (
    <li className="panel moderation__row" data-testid="report-row">
      <Link to={paths.gif(report.gif.id)} className="moderation__thumb">
        <img src={report.gif.thumbnailUrl} alt={report.gif.title} loading="lazy" />
      </Link>
      <div className="moderation__what">
        <Link to={paths.gif(report.gif.id)} className="moderation__title">
          {report.gif.title}
        </Link>
        <span className="moderation__meta">by {report.gif.owner}</span>
        <span className="moderation__reason">{reasonLabel(report.reason)}</span>
        {report.note ? <q className="moderation__note">{report.note}</q> : null}
        <span className="moderation__meta">
          Reported by {report.reporter} on <time dateTime={report.createdAt}>{formatDateTime(report.createdAt)}</time>
        </span>
      </div>
      <div className="moderation__actions">
        <button
          type="button"
          className="btn btn--danger"
          disabled={resolve.isPending}
          onClick={() => act('hide')}
          aria-label={`Hide ${report.gif.title}`}
        >
          Hide
        </button>
        <button
          type="button"
          className="btn btn--secondary"
          disabled={resolve.isPending}
          onClick={() => act('dismiss')}
          aria-label={`Dismiss the report of ${report.gif.title}`}
        >
          Dismiss
        </button>
      </div>
    </li>
  );
}

function HiddenGifs() {
  const [page, setPage] = useState(0);
  const texts = {
    loading: 'Loading hidden GIFs...',
    failed: MSG_LOAD_HIDDEN_FAILED,
    empty: MSG_NO_HIDDEN,
    pages: 'Hidden GIF pages',
  };
  return (
    <PagedSection<GifDto>
      id="hidden-gifs-title"
      title="Hidden GIFs"
      query={useHiddenGifs(page)}
      texts={texts}
      page={page}
      onPage={setPage}
      row={(gif) => <HiddenRow key={gif.id} gif={gif} />}
    />
  );
}

function HiddenRow({ gif }: { gif: GifDto }) {
  const restore = useSetGifHidden();
  const toast = useToast();
  const onRestore = () =>
    restore.mutate(
      { id: gif.id, hidden: false },
      {
        onSuccess: () => toast.success(MSG_GIF_RESTORED),
        onError: (error) => toast.error(errorMessage(error, MSG_MODERATE_FAILED)),
      },
    );
  return (
    <li className="panel moderation__row" data-testid="hidden-row">
      <Link to={paths.gif(gif.id)} className="moderation__thumb">
        <img src={gifMedia.thumbnail(gif.id)} alt={gif.title} loading="lazy" />
      </Link>
      <div className="moderation__what">
        <Link to={paths.gif(gif.id)} className="moderation__title">
          {gif.title}
        </Link>
        <span className="moderation__meta">by {gif.uploadedBy}</span>
        {gif.hidden ? (
          <span className="moderation__meta">
            {gif.hidden.reason} · hidden on{' '}
            <time dateTime={gif.hidden.hiddenAt}>{formatDateTime(gif.hidden.hiddenAt)}</time>
          </span>
        ) : null}
      </div>
      <div className="moderation__actions">
        <button
          type="button"
          className="btn btn--secondary"
          disabled={restore.isPending}
          onClick={onRestore}
          aria-label={`Restore ${gif.title}`}
        >
          Restore
        </button>
      </div>
    </li>
  );
}

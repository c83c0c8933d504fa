import { useState } from 'react';
import type { AuditEventDto } from '@/api/generated/AuditEventDto';
import { errorMessage } from '@/lib/api-client';
import { formatDateTime } from '@/lib/format';
import { useAuditEvents } from '../api/get-audit-events';
import { actionLabel } from '../audit-actions';
import './audit.css';

export const MSG_NO_EVENTS = 'Nothing has been recorded yet.';

/**
 * /admin/audit — admin and security events, newest first: who did what to what, when, and from
 * which address. Read only; paged.
 */
export function AuditPage() {
  const [page, setPage] = useState(0);
  const events = useAuditEvents(page);
  return (
    <section className="audit" aria-labelledby="audit-title">
      <h1 id="audit-title" className="page-title">
        Audit log
      </h1>
      <p className="audit__intro">
        Who changed roles, members, invitations, integrations, API keys and moderation, newest first.
      </p>
      {events.isPending ? (
        <p className="state-line" role="status">
          Loading the audit log...
        </p>
      ) : events.isError ? (
        <p className="form-message form-message--error" role="alert">
          Error: {errorMessage(events.error, 'Failed to load the audit log')}
        </p>
      ) : events.data.content.length === 0 ? (
        <p className="gallery__empty" role="status">
          {MSG_NO_EVENTS}
        </p>
      ) : (
        <>
          <ol className="audit__events" aria-busy={events.isPlaceholderData}>
            {events.data.content.map((event) => (
              <AuditRow key={event.id} event={event} />
            ))}
          </ol>
          {events.data.totalPages > 1 ? (
          <nav className="audit__pages" aria-label="Audit log pages">
            <button
              type="button"
              className="btn btn--secondary"
              disabled={!events.data.hasPrevious}
              onClick={() => setPage((p) => Math.max(0, p - 1))}
            >
              Newer
            </button>
            <span className="audit__page" aria-live="polite">
              Page {events.data.currentPage + 1} of {Math.max(1, events.data.totalPages)}
            </span>
            <button
              type="button"
              className="btn btn--secondary"
              disabled={!events.data.hasNext || events.isPlaceholderData}
              onClick={() => setPage((p) => p + 1)}
            >
              Older
            </button>
          </nav>
          ) : null}
        </>
      )}
    </section>
  );
}

function AuditRow({ event }: { event: AuditEventDto }) {
  return (
    <li className="panel audit__event" data-testid="audit-event">
      <div className="audit__what">
        <span className="audit__action">{actionLabel(event.action)}</span>
        <span className="audit__target">{event.target}</span>
        {event.detail ? <span className="audit__detail">{event.detail}</span> : null}
      </div>
      <dl className="audit__meta">
        <div>
          <dt>By</dt>
          <dd>{event.actor ? event.actor.username : 'the server'}</dd>
        </div>
        <div>
          <dt>When</dt>
          <dd>
            <time dateTime={event.at}>{formatDateTime(event.at)}</time>
          </dd>
        </div>
        <div>
          <dt>From</dt>
          <dd>{event.address ?? '—'}</dd>
        </div>
      </dl>
    </li>
  );
}

import { useDeferredValue, useState } from 'react';
import type { MemberDto } from '@/api/generated/MemberDto';
import type { PasswordResetLinkDto } from '@/api/generated/PasswordResetLinkDto';
import { useToast } from '@/components/toast/toast-provider';
import { errorMessage } from '@/lib/api-client';
import { formatDate, formatDateTime, toMB } from '@/lib/format';
import { useUsername } from '@/lib/session';
import { MSG_RESET_LINK_FAILED, useResetLink } from '../api/accounts';
import { MSG_LOAD_MEMBERS_FAILED, MSG_UPDATE_MEMBER_FAILED, useMembers, useUpdateMember } from '../api/members';
import { DeleteMemberDialog, MemberQuotaDialog, ResetLinkDialog } from './member-dialogs';
import './members.css';

export const MSG_NO_MEMBERS = 'No member matches.';

/** What a change does, in the toast that confirms it. */
function changed(member: MemberDto, change: { role?: string; status?: string }): string {
  if (change.role === 'admin') return `${member.username} is now an administrator`;
  if (change.role === 'user') return `${member.username} is no longer an administrator`;
  if (change.status === 'disabled') return `${member.username} is disabled and signed out everywhere`;
  return `${member.username} may sign in again`;
}

/**
 * "Accounts": every member, searched by name or email, paged, with their role, status, when they
 * joined and were last seen, and their GIFs; an admin makes or removes admins and disables or
 * enables accounts (never their own, nor the last admin: the server says why).
 */
export function MembersTable() {
  const [search, setSearch] = useState('');
  const [page, setPage] = useState(0);
  const q = useDeferredValue(search.trim());
  const members = useMembers(q, page);
  return (
    <section className="join-card" aria-labelledby="accounts-title">
      <h2 id="accounts-title" className="join-card__title">
        Accounts
      </h2>
      <label className="field members-search">
        <span className="field__label">Search members</span>
        <input
          type="search"
          className="field__input"
          value={search}
          maxLength={100}
          placeholder="Name or email"
          onChange={(e) => {
            setSearch(e.target.value);
            setPage(0);
          }}
        />
      </label>
      {members.isPending ? (
        <p className="state-line" role="status">
          Loading members...
        </p>
      ) : members.isError ? (
        <p className="form-message form-message--error" role="alert">
          Error: {errorMessage(members.error, MSG_LOAD_MEMBERS_FAILED)}
        </p>
      ) : members.data.content.length === 0 ? (
        <p className="join-card__hint" role="status">
          {MSG_NO_MEMBERS}
        </p>
      ) : (
        <>
          <ul className="members-list" aria-busy={members.isPlaceholderData}>
            {members.data.content.map((member) => (
              <MemberRow key={member.id} member={member} />
            ))}
          </ul>
          {members.data.totalPages > 1 ? (
            <nav className="members-pages" aria-label="Member pages">
              <button type="button" className="btn btn--secondary" disabled={!members.data.hasPrevious} onClick={() => setPage((p) => Math.max(0, p - 1))}>
                Previous
              </button>
              <span aria-live="polite">
                Page {members.data.currentPage + 1} of {members.data.totalPages}
              </span>
              <button type="button" className="btn btn--secondary" disabled={!members.data.hasNext || members.isPlaceholderData} onClick={() => setPage((p) => p + 1)}>
                Next
              </button>
            </nav>
          ) : null}
        </>
      )}
    </section>
  );
}

function MemberRow({ member }: { member: MemberDto }) {
  const update = useUpdateMember();
  const toast = useToast();
  const me = useUsername();
  const own = me === member.username;
  const change = (body: { role?: 'user' | 'admin'; status?: 'active' | 'disabled' }) =>
    update.mutate(
      { id: member.id, change: body },
      {
        onSuccess: () => toast.success(changed(member, body)),
        onError: (error) => toast.error(errorMessage(error, MSG_UPDATE_MEMBER_FAILED)),
      },
    );
  const disabled = member.status === 'disabled';
  return (
    <li className={`members-row${disabled ? ' members-row--disabled' : ''}`} data-testid="member-row">
      <div className="members-row__who">
        <span className="members-row__name">
          {member.username}
          {member.role === 'admin' ? <span className="members-badge">Admin</span> : null}
          {disabled ? <span className="members-badge members-badge--off">Disabled</span> : null}
        </span>
        <span className="members-row__email">{member.email}</span>
      </div>
      <dl className="members-row__facts">
        <div>
          <dt>Joined</dt>
          <dd>
            <time dateTime={member.createdAt}>{formatDate(member.createdAt)}</time>
          </dd>
        </div>
        <div>
          <dt>Last seen</dt>
          <dd>{member.lastSeenAt ? <time dateTime={member.lastSeenAt}>{formatDateTime(member.lastSeenAt)}</time> : 'never'}</dd>
        </div>
        <div>
          <dt>GIFs</dt>
          <dd>{member.gifCount}</dd>
        </div>
        <div>
          <dt>Storage</dt>
          <dd>{toMB(member.storageBytes)} MB</dd>
        </div>
      </dl>
      <div className="members-row__actions">
        <button
          type="button"
          className="btn btn--secondary btn--small"
          disabled={update.isPending}
          onClick={() => change({ role: member.role === 'admin' ? 'user' : 'admin' })}
        >
          {member.role === 'admin' ? 'Remove admin' : 'Make admin'}
        </button>
        {own ? null : (
          <button
            type="button"
            className={`btn btn--small ${disabled ? 'btn--secondary' : 'btn--danger'}`}
            disabled={update.isPending}
            onClick={() => change({ status: disabled ? 'active' : 'disabled' })}
          >
            {disabled ? 'Enable' : 'Disable'}
          </button>
        )}
        <AccountActions member={member} own={own} />
      </div>
    </li>
  );
}

/** Reset password (a link to pass on), the member's own quota, and Delete (never one's own account). */
function AccountActions({ member, own }: { member: MemberDto; own: boolean }) {
  const [open, setOpen] = useState<'delete' | 'quota' | null>(null);
  const [link, setLink] = useState<PasswordResetLinkDto | null>(null);
  const reset = useResetLink();
  const toast = useToast();
  const close = () => setOpen(null);
  return (
    <>
      <button
        type="button"
        className="btn btn--secondary btn--small"
        disabled={reset.isPending}
        onClick={() =>
          reset.mutate(member.id, {
            onSuccess: setLink,
            onError: (error) => toast.error(errorMessage(error, MSG_RESET_LINK_FAILED)),
          })
        }
      >
        Reset password
      </button>
      <button type="button" className="btn btn--secondary btn--small" onClick={() => setOpen('quota')}>
        Quota
      </button>
      {own ? null : (
        <button type="button" className="btn btn--danger btn--small" onClick={() => setOpen('delete')}>
          Delete
        </button>
      )}
      {link ? <ResetLinkDialog member={member} link={link} onClose={() => setLink(null)} /> : null}
      {open === 'quota' ? <MemberQuotaDialog member={member} onClose={close} /> : null}
      {open === 'delete' ? <DeleteMemberDialog member={member} onClose={close} /> : null}
    </>
  );
}

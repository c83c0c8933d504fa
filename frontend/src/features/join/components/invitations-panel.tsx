import { useState, type FormEvent } from 'react';
import type { CreatedInviteDto } from '@/api/generated/CreatedInviteDto';
import type { InviteDto } from '@/api/generated/InviteDto';
import { CopyField, copiedMessage } from '@/components/copy-field/copy-field';
import { FormMessage } from '@/components/form/form-message';
import { useToast } from '@/components/toast/toast-provider';
import { errorMessage } from '@/lib/api-client';
import { formatDate } from '@/lib/format';
import {
  MSG_CREATE_INVITE_FAILED,
  MSG_LOAD_INVITES_FAILED,
  MSG_REVOKE_INVITE_FAILED,
  useCreateInvite,
  useInvites,
  useRevokeInvite,
} from '../api/invites';
import './join.css';

export const MSG_INVITE_REVOKED = 'Invitation revoked';
export const MSG_NO_INVITES = 'No invitations yet.';
export const MSG_LINK_SHOWN_ONCE = 'Copy this link now: it will not be shown again.';

const EXPIRIES = [
  { hours: 24, label: '1 day' },
  { hours: 168, label: '7 days' },
  { hours: 720, label: '30 days' },
];

/**
 * "Invitations": make a link (uses, expiry, and for admins the role), shown once; list the
 * invitations with their uses and expiry, and revoke them. `canInviteAdmins`: the role choice.
 */
export function InvitationsPanel({ canInviteAdmins }: { canInviteAdmins: boolean }) {
  const [created, setCreated] = useState<CreatedInviteDto | null>(null);
  return (
    <section className="join-card" aria-labelledby="invitations-title">
      <h2 id="invitations-title" className="join-card__title">
        Invitations
      </h2>
      <p className="join-card__hint">An invitation link lets people create an account, even when registration is closed.</p>
      {created ? (
        <CreatedInvite created={created} onDone={() => setCreated(null)} />
      ) : (
        <InviteForm canInviteAdmins={canInviteAdmins} onCreated={setCreated} />
      )}
      <InviteList />
    </section>
  );
}

function InviteForm({
  canInviteAdmins,
  onCreated,
}: {
  canInviteAdmins: boolean;
  onCreated: (invite: CreatedInviteDto) => void;
}) {
  const create = useCreateInvite();
  const [maxUses, setMaxUses] = useState('1');
  const [hours, setHours] = useState(168);
  const [role, setRole] = useState<'user' | 'admin'>('user');

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (create.isPending) return;
    create.mutate({ maxUses: Number(maxUses), expiresInHours: hours, role }, { onSuccess: onCreated });
  };

  return (
    <form className="form join-invite-form" onSubmit={onSubmit} noValidate>
      <div className="field">
        <label className="field__label" htmlFor="invite-uses">
          Uses
        </label>
        <input
          id="invite-uses"
          className="field__input"
          type="number"
          min={1}
          max={1000}
          value={maxUses}
          onChange={(e) => setMaxUses(e.target.value)}
        />
      </div>
      <div className="field">
        <label className="field__label" htmlFor="invite-expiry">
          Expires after
        </label>
        <select id="invite-expiry" className="field__input" value={hours} onChange={(e) => setHours(Number(e.target.value))}>
          {EXPIRIES.map((e) => (
            <option key={e.hours} value={e.hours}>
              {e.label}
            </option>
          ))}
        </select>
      </div>
      {canInviteAdmins && (
        <div className="field">
          <label className="field__label" htmlFor="invite-role">
            Role
          </label>
          <select
            id="invite-role"
            className="field__input"
            value={role}
            onChange={(e) => setRole(e.target.value === 'admin' ? 'admin' : 'user')}
          >
            <option value="user">Member</option>
            <option value="admin">Administrator</option>
          </select>
        </div>
      )}
      {create.isError && (
        <FormMessage kind="error">{errorMessage(create.error, MSG_CREATE_INVITE_FAILED)}</FormMessage>
      )}
      <div className="form__actions">
        <button type="submit" className="btn btn--primary" disabled={create.isPending}>
          {create.isPending ? 'Creating…' : 'Create invitation'}
        </button>
      </div>
    </form>
  );
}

/** The new link, shown once, with a Copy button; Done goes back to the form. */
function CreatedInvite({ created, onDone }: { created: CreatedInviteDto; onDone: () => void }) {
  const toast = useToast();
  return (
    <div className="join-created">
      <CopyField
        label="Invitation link"
        labelClassName="field__label"
        value={created.url}
        onCopied={() => toast.success(copiedMessage('Invitation link'))}
      />
      <p className="field__help">{MSG_LINK_SHOWN_ONCE}</p>
      <div className="form__actions">
        <button type="button" className="btn btn--secondary" onClick={onDone}>
          Done
        </button>
      </div>
    </div>
  );
}

const describe = (invite: InviteDto) =>
  `${invite.uses} of ${invite.maxUses} used · expires ${formatDate(invite.expiresAt)} · ${
    invite.role === 'admin' ? 'administrator' : 'member'
  } · by ${invite.createdBy}`;

function InviteList() {
  const invites = useInvites();
  const revoke = useRevokeInvite();
  const toast = useToast();

  const onRevoke = (invite: InviteDto) => {
    if (revoke.isPending || !window.confirm('Revoke this invitation? Its link stops working at once.')) return;
    revoke.mutate(invite.id, {
      onSuccess: () => toast.success(MSG_INVITE_REVOKED),
      onError: (error) => toast.error(errorMessage(error, MSG_REVOKE_INVITE_FAILED)),
    });
  };

  if (invites.isPending) {
    return (
      <p className="state-line" role="status">
        Loading invitations...
      </p>
    );
  }
  if (invites.isError) {
    return (
      <p className="form-message form-message--error" role="alert">
        {errorMessage(invites.error, MSG_LOAD_INVITES_FAILED)}
      </p>
    );
  }
  if (invites.data.length === 0) return <p className="join-card__hint">{MSG_NO_INVITES}</p>;
  return (
    <ul className="join-list" aria-label="Invitations">
      {invites.data.map((invite) => (
        <li key={invite.id} className="join-list__item">
          <span className="join-list__text">{describe(invite)}</span>
          <button
            type="button"
            className="btn btn--ghost btn--small"
            aria-label={`Revoke invitation ${invite.id}`}
            onClick={() => onRevoke(invite)}
            disabled={revoke.isPending}
          >
            Revoke
          </button>
        </li>
      ))}
    </ul>
  );
}

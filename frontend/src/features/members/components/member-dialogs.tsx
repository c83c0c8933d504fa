import { useEffect, useState, type FormEvent } from 'react';
import type { MemberDto } from '@/api/generated/MemberDto';
import type { PasswordResetLinkDto } from '@/api/generated/PasswordResetLinkDto';
import { CopyField, copiedMessage } from '@/components/copy-field/copy-field';
import { Modal } from '@/components/modal/modal';
import { useToast } from '@/components/toast/toast-provider';
import { errorMessage } from '@/lib/api-client';
import { formatDateTime } from '@/lib/format';
import {
  MSG_DELETE_MEMBER_FAILED,
  MSG_LOAD_QUOTAS_FAILED,
  MSG_SAVE_QUOTAS_FAILED,
  bytesToMegabytes,
  countOf,
  megabytesToBytes,
  useDeleteMember,
  useMemberQuota,
  useSaveMemberQuota,
  validLimit,
  type GifChoice,
} from '../api/accounts';
import { useMembers } from '../api/members';

export const MSG_CHOOSE_RECIPIENT = 'Choose the member who gets the GIFs';
export const MSG_QUOTA_INVALID = 'Enter a number of at least 0, or leave it blank';

const gifsWord = (n: number) => (n === 1 ? '1 GIF' : `${n} GIFs`);

/** "Delete": the member's GIFs are deleted or handed to another active member, then confirmed. */
export function DeleteMemberDialog({ member, onClose }: { member: MemberDto; onClose: () => void }) {
  const [choice, setChoice] = useState<'delete' | 'transfer'>(member.gifCount > 0 ? 'transfer' : 'delete');
  const [to, setTo] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const remove = useDeleteMember();
  const toast = useToast();

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (choice === 'transfer' && !to) {
      setProblem(MSG_CHOOSE_RECIPIENT);
      return;
    }
    const body: GifChoice = choice === 'delete' ? { gifs: 'delete' } : { gifs: 'transfer', to: Number(to) };
    // The promise, not mutate's callbacks: the refetched list drops this member's row, and with
    // it this dialog, before callbacks passed to `mutate` would run (they never run unmounted).
    remove.mutateAsync({ id: member.id, choice: body }).then(
      () => {
        toast.success(`${member.username} was deleted`);
        onClose();
      },
      (error: unknown) => setProblem(errorMessage(error, MSG_DELETE_MEMBER_FAILED)),
    );
  };

  return (
    <Modal title={`Delete ${member.username}?`} onClose={onClose} className="modal--narrow">
      <form className="form member-dialog" onSubmit={onSubmit} noValidate>
        <p>
          Their account, sessions, API keys, favourites and collections are removed. This cannot be undone.
        </p>
        <fieldset className="member-dialog__choices">
          <legend className="field__label">Their {gifsWord(member.gifCount)}</legend>
          <label className="member-dialog__choice">
            <input type="radio" name="gifs" value="transfer" checked={choice === 'transfer'} onChange={() => setChoice('transfer')} />
            Hand them to another member
          </label>
          {choice === 'transfer' ? <RecipientPicker member={member} to={to} onChange={setTo} /> : null}
          <label className="member-dialog__choice">
            <input type="radio" name="gifs" value="delete" checked={choice === 'delete'} onChange={() => setChoice('delete')} />
            Delete their {gifsWord(member.gifCount)} and files
          </label>
        </fieldset>
        {problem ? (
          <p className="form-message form-message--error" role="alert">
            {problem}
          </p>
        ) : null}
        <div className="member-dialog__actions">
          <button type="button" className="btn btn--secondary" onClick={onClose}>
            Cancel
          </button>
          <button type="submit" className="btn btn--danger" disabled={remove.isPending}>
            {remove.isPending ? 'Deleting…' : 'Delete member'}
          </button>
        </div>
      </form>
    </Modal>
  );
}

/** The new owner of a deleted member's GIFs: another active member, found by name or email. */
function RecipientPicker({ member, to, onChange }: { member: MemberDto; to: string; onChange: (id: string) => void }) {
  const [search, setSearch] = useState('');
  const candidates = useMembers(search.trim(), 0);
  const others = (candidates.data?.content ?? []).filter((m) => m.id !== member.id && m.status === 'active');
  return (
    <div className="member-dialog__picker">
      <label className="field">
        <span className="field__label">Find a member</span>
        <input type="search" className="field__input" value={search} maxLength={100} placeholder="Name or email" onChange={(e) => setSearch(e.target.value)} />
      </label>
      <label className="field">
        <span className="field__label">New owner</span>
        <select className="field__input" value={to} onChange={(e) => onChange(e.target.value)}>
          <option value="">Choose a member</option>
          {others.map((m) => (
            <option key={m.id} value={m.id}>
              {m.username} ({m.email})
            </option>
          ))}
        </select>
      </label>
    </div>
  );
}

/** "Reset password": the one-time link to pass on, with a Copy button. */
export function ResetLinkDialog({ member, link, onClose }: { member: MemberDto; link: PasswordResetLinkDto; onClose: () => void }) {
  const toast = useToast();
  return (
    <Modal title={`Reset password for ${member.username}`} onClose={onClose} className="modal--narrow">
      <div className="member-dialog">
        <p>
          Pass this link on to {member.username}. It works once, until{' '}
          <time dateTime={link.expiresAt}>{formatDateTime(link.expiresAt)}</time>; a new link replaces it.
        </p>
        <CopyField label="Reset link" value={link.url} labelClassName="field__label" onCopied={() => toast.success(copiedMessage('Reset link'))} />
        <div className="member-dialog__actions">
          <button type="button" className="btn btn--primary" onClick={onClose}>
            Done
          </button>
        </div>
      </div>
    </Modal>
  );
}

/** "Quota": the member's own storage and daily upload limits; blank keeps the default. */
export function MemberQuotaDialog({ member, onClose }: { member: MemberDto; onClose: () => void }) {
  const quota = useMemberQuota(member.id);
  const save = useSaveMemberQuota(member.id);
  const toast = useToast();
  const [storage, setStorage] = useState('');
  const [uploads, setUploads] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  useEffect(() => {
    if (!quota.data) return;
    setStorage(bytesToMegabytes(quota.data.storageBytes));
    setUploads(quota.data.uploadsPerDay === null ? '' : String(quota.data.uploadsPerDay));
  }, [quota.data]);

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (!validLimit(storage, false) || !validLimit(uploads, true)) {
      setProblem(MSG_QUOTA_INVALID);
      return;
    }
    save.mutate(
      { storageBytes: megabytesToBytes(storage), uploadsPerDay: countOf(uploads) },
      {
        onSuccess: () => {
          toast.success(`Quota of ${member.username} saved`);
          onClose();
        },
        onError: (error) => setProblem(errorMessage(error, MSG_SAVE_QUOTAS_FAILED)),
      },
    );
  };

  return (
    <Modal title={`Quota for ${member.username}`} onClose={onClose} className="modal--narrow">
      {quota.isError ? (
        <p className="form-message form-message--error" role="alert">
          Error: {errorMessage(quota.error, MSG_LOAD_QUOTAS_FAILED)}
        </p>
      ) : (
        <form className="form member-dialog" onSubmit={onSubmit} noValidate>
          <p className="join-card__hint">Leave a field blank to use the default quota.</p>
          <label className="field">
            <span className="field__label">Storage (MB)</span>
            <input className="field__input" inputMode="decimal" value={storage} onChange={(e) => setStorage(e.target.value)} placeholder="Default" />
          </label>
          <label className="field">
            <span className="field__label">Uploads per day</span>
            <input className="field__input" inputMode="numeric" value={uploads} onChange={(e) => setUploads(e.target.value)} placeholder="Default" />
          </label>
          {problem ? (
            <p className="form-message form-message--error" role="alert">
              {problem}
            </p>
          ) : null}
          <div className="member-dialog__actions">
            <button type="button" className="btn btn--secondary" onClick={onClose}>
              Cancel
            </button>
            <button type="submit" className="btn btn--primary" disabled={save.isPending || quota.isPending}>
              Save
            </button>
          </div>
        </form>
      )}
    </Modal>
  );
}

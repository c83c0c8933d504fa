import { useState, type FormEvent } from 'react';
import type { QuotaDto } from '@/api/generated/QuotaDto';
import { FormMessage } from '@/components/form/form-message';
import { useToast } from '@/components/toast/toast-provider';
import { errorMessage } from '@/lib/api-client';
import {
  MSG_LOAD_QUOTAS_FAILED,
  MSG_SAVE_QUOTAS_FAILED,
  bytesToMegabytes,
  countOf,
  megabytesToBytes,
  useDefaultQuota,
  useSaveDefaultQuota,
  validLimit,
} from '../api/accounts';
import { MSG_QUOTA_INVALID } from './member-dialogs';
import './members.css';

export const MSG_QUOTAS_SAVED = 'Quotas saved';

/** "Quotas": the storage and daily upload limits of every member without their own (blank: unlimited). */
export function QuotasPanel() {
  const quota = useDefaultQuota();
  return (
    <section className="join-card" aria-labelledby="quotas-title">
      <h2 id="quotas-title" className="join-card__title">
        Quotas
      </h2>
      {quota.isPending ? (
        <p className="state-line" role="status">
          Loading quotas...
        </p>
      ) : quota.isError ? (
        <p className="form-message form-message--error" role="alert">
          {errorMessage(quota.error, MSG_LOAD_QUOTAS_FAILED)}
        </p>
      ) : (
        <QuotaForm stored={quota.data} />
      )}
    </section>
  );
}

function QuotaForm({ stored }: { stored: QuotaDto }) {
  const save = useSaveDefaultQuota();
  const toast = useToast();
  const [storage, setStorage] = useState(bytesToMegabytes(stored.storageBytes));
  const [uploads, setUploads] = useState(stored.uploadsPerDay === null ? '' : String(stored.uploadsPerDay));
  const [invalid, setInvalid] = useState(false);

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    const ok = validLimit(storage, false) && validLimit(uploads, true);
    setInvalid(!ok);
    if (!ok || save.isPending) return;
    save.mutate(
      { storageBytes: megabytesToBytes(storage), uploadsPerDay: countOf(uploads) },
      { onSuccess: () => toast.success(MSG_QUOTAS_SAVED) },
    );
  };

  return (
    <form className="form" onSubmit={onSubmit} noValidate>
      <p className="join-card__hint">For every member without a quota of their own. Leave a field blank for no limit.</p>
      <div className="quota-form">
        <label className="field">
          <span className="field__label">Storage per member (MB)</span>
          <input className="field__input" inputMode="decimal" value={storage} placeholder="Unlimited" onChange={(e) => setStorage(e.target.value)} />
        </label>
        <label className="field">
          <span className="field__label">Uploads per day</span>
          <input className="field__input" inputMode="numeric" value={uploads} placeholder="Unlimited" onChange={(e) => setUploads(e.target.value)} />
        </label>
      </div>
      {invalid && <FormMessage kind="error">{MSG_QUOTA_INVALID}</FormMessage>}
      {save.isError && <FormMessage kind="error">{errorMessage(save.error, MSG_SAVE_QUOTAS_FAILED)}</FormMessage>}
      <div className="form__actions">
        <button type="submit" className="btn btn--primary" disabled={save.isPending}>
          {save.isPending ? 'Saving…' : 'Save'}
        </button>
      </div>
    </form>
  );
}

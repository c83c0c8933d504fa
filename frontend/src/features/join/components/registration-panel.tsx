import { useState, type FormEvent } from 'react';
import type { RegistrationPolicyDto } from '@/api/generated/RegistrationPolicyDto';
import { FormMessage } from '@/components/form/form-message';
import { useToast } from '@/components/toast/toast-provider';
import { errorMessage } from '@/lib/api-client';
import {
  MSG_LOAD_POLICY_FAILED,
  MSG_SAVE_POLICY_FAILED,
  useRegistrationPolicy,
  useSaveRegistrationPolicy,
} from '../api/registration-policy';
import './join.css';

export const MSG_POLICY_SAVED = 'Registration settings saved';

const MODES: { value: RegistrationPolicyDto['mode']; label: string; help: string }[] = [
  { value: 'open', label: 'Open', help: 'Anyone can create an account.' },
  { value: 'invite', label: 'Invitation only', help: 'People need an invitation link to join.' },
  { value: 'closed', label: 'Closed', help: 'Nobody registers on their own; send invitations to add people.' },
];

/** The domains as typed (commas, spaces or new lines between them). */
const parseDomains = (text: string) =>
  text
    .split(/[\s,]+/)
    .map((d) => d.trim())
    .filter(Boolean);

/** "Registration": who may join (mode, allowed email domains, whether members may invite). */
export function RegistrationPanel() {
  const policy = useRegistrationPolicy();
  return (
    <section className="join-card" aria-labelledby="registration-title">
      <h2 id="registration-title" className="join-card__title">
        Registration
      </h2>
      {policy.isPending ? (
        <p className="state-line" role="status">
          Loading registration settings...
        </p>
      ) : policy.isError ? (
        <p className="form-message form-message--error" role="alert">
          {errorMessage(policy.error, MSG_LOAD_POLICY_FAILED)}
        </p>
      ) : (
        <PolicyForm stored={policy.data} />
      )}
    </section>
  );
}

function PolicyForm({ stored }: { stored: RegistrationPolicyDto }) {
  const save = useSaveRegistrationPolicy();
  const toast = useToast();
  const [mode, setMode] = useState(stored.mode);
  const [domains, setDomains] = useState(stored.allowedDomains.join(', '));
  const [membersMayInvite, setMembersMayInvite] = useState(stored.membersMayInvite);

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (save.isPending) return;
    save.mutate(
      { mode, allowedDomains: parseDomains(domains), membersMayInvite },
      {
        onSuccess: (saved) => {
          setDomains(saved.allowedDomains.join(', '));
          toast.success(MSG_POLICY_SAVED);
        },
      },
    );
  };

  return (
    <form className="form" onSubmit={onSubmit} noValidate>
      <fieldset className="join-modes">
        <legend className="field__label">Who can join</legend>
        {MODES.map((m) => (
          <div key={m.value} className="join-modes__option">
            <input
              id={`registration-mode-${m.value}`}
              type="radio"
              name="registrationMode"
              value={m.value}
              checked={mode === m.value}
              onChange={() => setMode(m.value)}
            />
            <label htmlFor={`registration-mode-${m.value}`}>
              <strong>{m.label}</strong>
              <span className="join-card__hint"> {m.help}</span>
            </label>
          </div>
        ))}
      </fieldset>
      <div className="field">
        <label className="field__label" htmlFor="allowed-domains">
          Allowed email domains
        </label>
        <textarea
          id="allowed-domains"
          className="field__input join-domains"
          rows={2}
          value={domains}
          placeholder="example.com, corp.example"
          onChange={(e) => setDomains(e.target.value)}
        />
        <p className="field__help">
          Leave empty to allow any domain. Applies to invited people and to Google sign-ups too (at most 50).
        </p>
      </div>
      <label className="join-check">
        <input type="checkbox" checked={membersMayInvite} onChange={(e) => setMembersMayInvite(e.target.checked)} />
        Members who are not administrators may create invitations
      </label>
      {save.isError && <FormMessage kind="error">{errorMessage(save.error, MSG_SAVE_POLICY_FAILED)}</FormMessage>}
      <div className="form__actions">
        <button type="submit" className="btn btn--primary" disabled={save.isPending}>
          {save.isPending ? 'Saving…' : 'Save'}
        </button>
      </div>
    </form>
  );
}

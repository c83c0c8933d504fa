import { useId, useState, type FormEvent } from 'react';
import { Modal } from '@/components/modal/modal';
import { useToast } from '@/components/toast/toast-provider';
import { errorMessage } from '@/lib/api-client';
import { MSG_REPORT_FAILED, useReportGif } from '../api/moderation';
import { MSG_REPORT_PICK_REASON, MSG_REPORT_SENT } from '../messages';
import { REPORT_NOTE_MAX, REPORT_REASONS, type ReportReason } from '../reasons';
import './moderation.css';


/**
 * "Report GIF": a reason from the short list and an optional note for the administrators. Sent, it
 * closes with a success toast; a refusal keeps it open and says why.
 */
export function ReportDialog({ gifId, title, onClose }: { gifId: number; title: string; onClose: () => void }) {
  const [reason, setReason] = useState<ReportReason | ''>('');
  const [note, setNote] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const report = useReportGif();
  const toast = useToast();
  const noteId = useId();
  const counterId = useId();

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (!reason) {
      setProblem(MSG_REPORT_PICK_REASON);
      return;
    }
    setProblem(null);
    const trimmed = note.trim();
    report.mutate(
      { id: gifId, body: trimmed ? { reason, note: trimmed } : { reason } },
      {
        onSuccess: () => {
          toast.success(MSG_REPORT_SENT);
          onClose();
        },
        onError: (error) => {
          const message = errorMessage(error, MSG_REPORT_FAILED);
          setProblem(message);
          toast.error(message);
        },
      },
    );
  };

  return (
    <Modal title="Report GIF" onClose={onClose} className="report-dialog">
      <form className="report-dialog__form" onSubmit={onSubmit} noValidate>
        <p className="report-dialog__intro">
          Tell the administrators why &ldquo;{title}&rdquo; should not be in the library.
        </p>
        <ReasonChoices reason={reason} onChange={setReason} />
        <div className="field">
          <label className="field__label" htmlFor={noteId}>
            Note (optional)
          </label>
          <textarea
            id={noteId}
            className="field__input field__textarea"
            value={note}
            maxLength={REPORT_NOTE_MAX}
            rows={4}
            aria-describedby={counterId}
            onChange={(event) => setNote(event.target.value)}
          />
          <p id={counterId} className="field__help">
            {note.length}/{REPORT_NOTE_MAX}
          </p>
        </div>
        {problem && (
          <p className="form-message form-message--error" role="alert">
            {problem}
          </p>
        )}
        <div className="report-dialog__actions">
          <button type="button" className="btn btn--secondary" onClick={onClose}>
            Cancel
          </button>
          <button type="submit" className="btn btn--danger" disabled={report.isPending}>
            {report.isPending ? 'Sending...' : 'Send report'}
          </button>
        </div>
      </form>
    </Modal>
  );
}

/** "Reason": one radio button per reason of the short list. */
function ReasonChoices({ reason, onChange }: { reason: ReportReason | ''; onChange: (reason: ReportReason) => void }) {
  return (
    <fieldset className="report-dialog__reasons">
      <legend className="field__label">Reason</legend>
      {REPORT_REASONS.map((r) => (
        <label key={r.value} className="report-dialog__reason">
          <input
            type="radio"
            name="reason"
            value={r.value}
            checked={reason === r.value}
            onChange={() => onChange(r.value)}
          />
          <span>{r.label}</span>
        </label>
      ))}
    </fieldset>
  );
}

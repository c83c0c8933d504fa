import { useEffect, useId, useRef, useState } from 'react';
import './copy-field.css';

export const COPIED_MS = 2000;

/** The success toast of every Copy button: "{what} copied to the clipboard." */
export const copiedMessage = (label: string) => `${label} copied to the clipboard.`;

async function copyText(text: string, input: HTMLInputElement | HTMLTextAreaElement | null): Promise<boolean> {
  try {
    if (navigator.clipboard?.writeText) {
      await navigator.clipboard.writeText(text);
      return true;
    }
  } catch {
    // fall through to the selection-based copy
  }
  if (!input) return false;
  input.focus();
  input.select();
  try {
    return document.execCommand('copy');
  } catch {
    return false;
  }
}

type CopyFieldProps = {
  label: string;
  value: string;
  /** The button's accessible name when "Copy" alone would be ambiguous. */
  copyLabel?: string;
  /** Told after a successful copy (a toast). */
  onCopied?: () => void;
  multiline?: boolean;
  /** The label's class: a section title by default (the GIF detail page), `field__label` in forms. */
  labelClassName?: string;
};

/** A read-only value with a Copy button that says "Copied!" for 2 s. */
export function CopyField({
  label,
  value,
  copyLabel,
  onCopied,
  multiline = false,
  labelClassName = 'detail-section__title',
}: CopyFieldProps) {
  const id = useId();
  const inputRef = useRef<HTMLInputElement & HTMLTextAreaElement>(null);
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const [copied, setCopied] = useState(false);

  useEffect(
    () => () => {
      if (timer.current) clearTimeout(timer.current);
    },
    [],
  );

  const onCopy = async () => {
    const ok = await copyText(value, inputRef.current);
    if (!ok) return;
    setCopied(true);
    onCopied?.();
    if (timer.current) clearTimeout(timer.current);
    timer.current = setTimeout(() => setCopied(false), COPIED_MS);
  };

  return (
    <div className="share-link">
      <label className={labelClassName} htmlFor={id}>
        {label}
      </label>
      <div className="share-link__row">
        {multiline ? (
          <textarea
            ref={inputRef}
            id={id}
            className="field__input share-link__input share-link__code"
            readOnly
            rows={2}
            value={value}
            onFocus={(event) => event.currentTarget.select()}
          />
        ) : (
          <input
            ref={inputRef}
            id={id}
            className="field__input share-link__input"
            type="text"
            readOnly
            value={value}
            onFocus={(event) => event.currentTarget.select()}
          />
        )}
        <button
          type="button"
          className="btn btn--primary"
          onClick={() => void onCopy()}
          aria-label={copyLabel && !copied ? copyLabel : undefined}
        >
          {copied ? 'Copied!' : 'Copy'}
        </button>
      </div>
      <span className="visually-hidden" aria-live="polite">
        {copied ? 'Copied!' : ''}
      </span>
    </div>
  );
}

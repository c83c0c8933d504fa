import { useEffect, useId, useRef, useState } from 'react';

export const COPIED_MS = 2000;

async function copyText(text: string, input: HTMLInputElement | null): Promise<boolean> {
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

/** "Share this GIF": the public link, read-only, with a Copy button that says "Copied!" for 2 s. */
export function ShareLink({ url }: { url: string }) {
  const id = useId();
  const inputRef = useRef<HTMLInputElement>(null);
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const [copied, setCopied] = useState(false);

  useEffect(
    () => () => {
      if (timer.current) clearTimeout(timer.current);
    },
    [],
  );

  const onCopy = async () => {
    const ok = await copyText(url, inputRef.current);
    if (!ok) return;
    setCopied(true);
    if (timer.current) clearTimeout(timer.current);
    timer.current = setTimeout(() => setCopied(false), COPIED_MS);
  };

  return (
    <div className="share-link">
      <label className="detail-section__title" htmlFor={id}>
        Share this GIF
      </label>
      <div className="share-link__row">
        <input
          ref={inputRef}
          id={id}
          className="field__input share-link__input"
          type="text"
          readOnly
          value={url}
          onFocus={(event) => event.currentTarget.select()}
        />
        <button type="button" className="btn btn--primary" onClick={() => void onCopy()}>
          {copied ? 'Copied!' : 'Copy'}
        </button>
      </div>
      <span className="visually-hidden" aria-live="polite">
        {copied ? 'Copied!' : ''}
      </span>
    </div>
  );
}

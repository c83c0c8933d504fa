import type { ReactNode } from 'react';

type FormMessageProps = { kind: 'error' | 'success'; children: ReactNode };

/** A form-level status line (server error or success). */
export function FormMessage({ kind, children }: FormMessageProps) {
  return (
    <p className={`form-message form-message--${kind}`} role={kind === 'error' ? 'alert' : 'status'}>
      {children}
    </p>
  );
}

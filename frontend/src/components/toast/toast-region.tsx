import { useToast } from './toast-provider';
import './toast.css';

const icons = { success: '✓', error: '!', warning: '!', info: 'i' } as const;

/** Stacked notifications; renders nothing when there are none. */
export function ToastRegion() {
  const { toasts, remove } = useToast();
  if (toasts.length === 0) return null;
  return (
    <div className="toast-region" aria-live="polite">
      {toasts.map((toast) => (
        <div
          key={toast.id}
          className={[
            'toast',
            `toast--${toast.type}`,
            toast.visible ? 'toast--visible' : '',
            toast.leaving ? 'toast--leaving' : '',
          ]
            .filter(Boolean)
            .join(' ')}
          role={toast.type === 'error' ? 'alert' : 'status'}
          data-testid="toast"
          data-type={toast.type}
        >
          <span className="toast__icon" aria-hidden="true">
            {icons[toast.type]}
          </span>
          <div className="toast__body">
            {toast.title && <p className="toast__title">{toast.title}</p>}
            <p className="toast__message">{toast.message}</p>
          </div>
          <button
            type="button"
            className="toast__close"
            aria-label="Close notification"
            onClick={() => remove(toast.id)}
          >
            ×
          </button>
        </div>
      ))}
    </div>
  );
}

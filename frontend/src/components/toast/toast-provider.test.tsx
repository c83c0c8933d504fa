import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createToastStore, type ToastStore } from '@/lib/toast-store';
import { ToastProvider, useToast } from './toast-provider';

function Trigger() {
  const toast = useToast();
  return (
    <button type="button" onClick={() => toast.success('Saved!', { title: 'Done' })}>
      notify
    </button>
  );
}

let store: ToastStore;
beforeEach(() => {
  store = createToastStore();
});
afterEach(() => {
  cleanup();
  store.getState().clearAll();
  vi.useRealTimers();
});

describe('ToastProvider', () => {
  it('renders nothing while there are no toasts', () => {
    const { container } = render(
      <ToastProvider store={store}>
        <p>app</p>
      </ToastProvider>,
    );
    expect(container.querySelector('.toast-region')).toBeNull();
  });

  it('shows a toast that the close button removes after the exit animation', () => {
    vi.useFakeTimers();
    render(
      <ToastProvider store={store}>
        <Trigger />
      </ToastProvider>,
    );
    fireEvent.click(screen.getByRole('button', { name: 'notify' }));
    const toast = screen.getByRole('status');
    expect(toast).toHaveTextContent('Done');
    expect(toast).toHaveTextContent('Saved!');
    act(() => {
      vi.advanceTimersToNextFrame();
    });
    expect(toast).toHaveClass('toast--visible');
    fireEvent.click(screen.getByRole('button', { name: 'Close notification' }));
    expect(screen.getByRole('status')).toHaveClass('toast--leaving');
    act(() => {
      vi.advanceTimersByTime(300);
    });
    expect(screen.queryByRole('status')).toBeNull();
  });

  it('throws when useToast is used outside the provider', () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const silence = (event: ErrorEvent) => event.preventDefault();
    window.addEventListener('error', silence);
    expect(() => render(<Trigger />)).toThrow('useToast must be used within a ToastProvider');
    window.removeEventListener('error', silence);
  });
});

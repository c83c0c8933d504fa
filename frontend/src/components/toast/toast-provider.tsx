import { createContext, useContext, type ReactNode } from 'react';
import { useStore } from 'zustand';
import { toastStore, type ToastApi, type ToastStore } from '@/lib/toast-store';
import { ToastRegion } from './toast-region';

const ToastContext = createContext<ToastStore | null>(null);

type ToastProviderProps = {
  children: ReactNode;
  /** Defaults to the app's store; tests pass their own. */
  store?: ToastStore;
};

export function ToastProvider({ children, store = toastStore }: ToastProviderProps) {
  return (
    <ToastContext.Provider value={store}>
      {children}
      <ToastRegion />
    </ToastContext.Provider>
  );
}

/** The notification API: toasts plus add, remove, clearAll, success, error, warning, info. */
export function useToast(): ToastApi {
  const store = useContext(ToastContext);
  if (!store) throw new Error('useToast must be used within a ToastProvider');
  return useStore(store);
}

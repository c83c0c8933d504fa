import { createStore, type StoreApi } from 'zustand/vanilla';

export type ToastType = 'success' | 'error' | 'warning' | 'info';

export type Toast = {
  id: string;
  type: ToastType;
  title?: string;
  message: string;
  /** Milliseconds before it leaves by itself; 0 or less keeps it until closed. */
  duration: number;
  /** False until the next animation frame after it was added, and again while it leaves. */
  visible: boolean;
  leaving: boolean;
};

export type ToastInput = {
  message: string;
  type?: ToastType;
  title?: string;
  duration?: number;
};

export type ToastOverrides = Omit<ToastInput, 'message'>;

export type ToastApi = {
  toasts: Toast[];
  add: (toast: ToastInput) => string;
  remove: (id: string) => void;
  clearAll: () => void;
  success: (message: string, overrides?: ToastOverrides) => string;
  error: (message: string, overrides?: ToastOverrides) => string;
  warning: (message: string, overrides?: ToastOverrides) => string;
  info: (message: string, overrides?: ToastOverrides) => string;
};

export const DEFAULT_TOAST_DURATION_MS = 5000;
export const ERROR_TOAST_DURATION_MS = 7000;
export const TOAST_EXIT_MS = 300;

function randomId(): string {
  return Math.random().toString(36).slice(2, 11) + Date.now().toString(36);
}

export type ToastStore = StoreApi<ToastApi>;

export function createToastStore(): ToastStore {
  const timers = new Map<string, ReturnType<typeof setTimeout>[]>();

  const track = (id: string, timer: ReturnType<typeof setTimeout>) => {
    timers.set(id, [...(timers.get(id) ?? []), timer]);
  };
  const clearTimers = (id: string) => {
    for (const timer of timers.get(id) ?? []) clearTimeout(timer);
    timers.delete(id);
  };

  return createStore<ToastApi>()((set, get) => {
    const remove = (id: string) => {
      const toast = get().toasts.find((t) => t.id === id);
      if (!toast || toast.leaving) return;
      clearTimers(id);
      set((s) => ({
        toasts: s.toasts.map((t) => (t.id === id ? { ...t, visible: false, leaving: true } : t)),
      }));
      track(
        id,
        setTimeout(() => {
          timers.delete(id);
          set((s) => ({ toasts: s.toasts.filter((t) => t.id !== id) }));
        }, TOAST_EXIT_MS),
      );
    };

    const add = (input: ToastInput) => {
      const id = randomId();
      const toast: Toast = {
        id,
        type: input.type ?? 'info',
        message: input.message,
        duration: input.duration ?? DEFAULT_TOAST_DURATION_MS,
        visible: false,
        leaving: false,
        ...(input.title !== undefined ? { title: input.title } : {}),
      };
      set((s) => ({ toasts: [...s.toasts, toast] }));
      requestAnimationFrame(() => {
        set((s) => ({
          toasts: s.toasts.map((t) => (t.id === id && !t.leaving ? { ...t, visible: true } : t)),
        }));
      });
      if (toast.duration > 0) {
        track(
          id,
          setTimeout(() => remove(id), toast.duration),
        );
      }
      return id;
    };

    const helper =
      (type: ToastType, duration?: number) => (message: string, overrides?: ToastOverrides) =>
        add({ type, ...(duration !== undefined ? { duration } : {}), ...overrides, message });

    return {
      toasts: [],
      add,
      remove,
      clearAll: () => {
        for (const id of [...timers.keys()]) clearTimers(id);
        set({ toasts: [] });
      },
      success: helper('success'),
      error: helper('error', ERROR_TOAST_DURATION_MS),
      warning: helper('warning'),
      info: helper('info'),
    };
  });
}

/** The app's one notification store; React code reaches it through `useToast`. */
export const toastStore: ToastStore = createToastStore();

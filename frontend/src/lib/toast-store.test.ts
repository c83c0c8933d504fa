import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createToastStore, type ToastStore } from './toast-store';

let store: ToastStore;

beforeEach(() => {
  vi.useFakeTimers();
  store = createToastStore();
});

afterEach(() => {
  store.getState().clearAll();
  vi.useRealTimers();
});

const toasts = () => store.getState().toasts;

describe('toast store', () => {
  it('adds an info toast with a random id and 5000 ms by default', () => {
    const a = store.getState().add({ message: 'Hello' });
    const b = store.getState().add({ message: 'Again' });
    expect(a).not.toBe(b);
    expect(toasts()[0]).toMatchObject({ id: a, type: 'info', message: 'Hello', duration: 5000 });
    expect(toasts()).toHaveLength(2);
  });

  it('becomes visible on the next animation frame', () => {
    store.getState().success('Saved');
    expect(toasts()[0]?.visible).toBe(false);
    vi.advanceTimersToNextFrame();
    expect(toasts()[0]?.visible).toBe(true);
  });

  it('leaves after its duration, then is removed after the 300 ms exit animation', () => {
    store.getState().info('Bye', { duration: 1000 });
    vi.advanceTimersByTime(999);
    expect(toasts()[0]).toMatchObject({ leaving: false, visible: true });
    vi.advanceTimersByTime(1);
    expect(toasts()[0]).toMatchObject({ leaving: true, visible: false });
    vi.advanceTimersByTime(299);
    expect(toasts()).toHaveLength(1);
    vi.advanceTimersByTime(1);
    expect(toasts()).toHaveLength(0);
  });

  it('uses 5000 ms for success/warning/info and 7000 ms for the error helper', () => {
    const { success, warning, info, error } = store.getState();
    success('s');
    warning('w');
    info('i');
    error('e');
    expect(toasts().map((t) => [t.type, t.duration])).toEqual([
      ['success', 5000],
      ['warning', 5000],
      ['info', 5000],
      ['error', 7000],
    ]);
    vi.advanceTimersByTime(5300);
    expect(toasts().map((t) => t.type)).toEqual(['error']);
    vi.advanceTimersByTime(2000);
    expect(toasts()).toHaveLength(0);
  });

  it('lets helpers take overrides (title, duration)', () => {
    store.getState().error('Too big', { title: 'Upload Failed', duration: 3000 });
    expect(toasts()[0]).toMatchObject({ type: 'error', title: 'Upload Failed', duration: 3000 });
  });

  it.each([0, -1])('never auto-dismisses with duration %i', (duration) => {
    store.getState().warning('Sticky', { duration });
    vi.advanceTimersByTime(60_000);
    expect(toasts()).toHaveLength(1);
  });

  it('removes by id with the exit animation, and clearAll empties at once', () => {
    const id = store.getState().info('one', { duration: 0 });
    store.getState().info('two', { duration: 0 });
    store.getState().remove(id);
    expect(toasts().find((t) => t.id === id)?.leaving).toBe(true);
    vi.advanceTimersByTime(300);
    expect(toasts().map((t) => t.message)).toEqual(['two']);
    store.getState().clearAll();
    expect(toasts()).toEqual([]);
  });
});

import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { initTheme, themeStore } from './theme-store';

type Listener = (event: MediaQueryListEvent) => void;

/** A controllable prefers-color-scheme media query. */
function mockMatchMedia(initiallyDark: boolean) {
  let dark = initiallyDark;
  const listeners = new Set<Listener>();
  const query = {
    get matches() {
      return dark;
    },
    media: '(prefers-color-scheme: dark)',
    addEventListener: (_: string, l: Listener) => listeners.add(l),
    removeEventListener: (_: string, l: Listener) => listeners.delete(l),
  };
  vi.stubGlobal('matchMedia', () => query);
  return {
    setDark(value: boolean) {
      dark = value;
      listeners.forEach((l) => l({ matches: value } as MediaQueryListEvent));
    },
    listenerCount: () => listeners.size,
  };
}

const applied = () => document.documentElement.getAttribute('data-theme');
let cleanup: (() => void) | null = null;

beforeEach(() => {
  document.documentElement.removeAttribute('data-theme');
});
afterEach(() => {
  cleanup?.();
  cleanup = null;
  vi.unstubAllGlobals();
});

describe('theme', () => {
  it('defaults to system and follows the OS preference live', () => {
    const media = mockMatchMedia(false);
    cleanup = initTheme();
    expect(themeStore.getState().theme).toBe('system');
    expect(applied()).toBe('light');
    media.setDark(true);
    expect(applied()).toBe('dark');
    media.setDark(false);
    expect(applied()).toBe('light');
  });

  it('saves the choice in localStorage "theme" and restores it', () => {
    const media = mockMatchMedia(false);
    cleanup = initTheme();
    themeStore.getState().setTheme('dark');
    expect(localStorage.getItem('theme')).toBe('dark');
    expect(applied()).toBe('dark');
    cleanup();

    document.documentElement.removeAttribute('data-theme');
    cleanup = initTheme();
    expect(themeStore.getState().theme).toBe('dark');
    expect(applied()).toBe('dark');
    media.setDark(false);
    expect(applied()).toBe('dark');
  });

  it('ignores OS changes unless the choice is system', () => {
    const media = mockMatchMedia(true);
    cleanup = initTheme();
    expect(applied()).toBe('dark');
    themeStore.getState().setTheme('light');
    media.setDark(true);
    expect(applied()).toBe('light');
    themeStore.getState().setTheme('system');
    expect(applied()).toBe('dark');
  });

  it('falls back to system for an unknown stored value and removes its listener on cleanup', () => {
    localStorage.setItem('theme', 'purple');
    const media = mockMatchMedia(true);
    cleanup = initTheme();
    expect(themeStore.getState().theme).toBe('system');
    expect(applied()).toBe('dark');
    expect(media.listenerCount()).toBe(1);
    cleanup();
    cleanup = null;
    expect(media.listenerCount()).toBe(0);
  });
});

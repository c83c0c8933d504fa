import { useStore } from 'zustand';
import { createStore } from 'zustand/vanilla';

export type Theme = 'light' | 'dark' | 'system';
export type ResolvedTheme = 'light' | 'dark';

export const THEME_KEY = 'theme';
export const THEMES: readonly Theme[] = ['light', 'dark', 'system'];
const DARK_QUERY = '(prefers-color-scheme: dark)';

type ThemeState = {
  theme: Theme;
  resolved: ResolvedTheme;
  setTheme: (theme: Theme) => void;
};

const isTheme = (value: unknown): value is Theme =>
  typeof value === 'string' && (THEMES as readonly string[]).includes(value);

function systemPrefersDark(): boolean {
  return typeof window.matchMedia === 'function' && window.matchMedia(DARK_QUERY).matches;
}

export function resolveTheme(theme: Theme): ResolvedTheme {
  if (theme === 'system') return systemPrefersDark() ? 'dark' : 'light';
  return theme;
}

export function readSavedTheme(): Theme {
  try {
    const saved = window.localStorage.getItem(THEME_KEY);
    return isTheme(saved) ? saved : 'system';
  } catch {
    return 'system';
  }
}

function apply(resolved: ResolvedTheme): void {
  document.documentElement.setAttribute('data-theme', resolved);
}

export const themeStore = createStore<ThemeState>()((set) => ({
  theme: 'system',
  resolved: 'light',
  setTheme: (theme) => {
    try {
      window.localStorage.setItem(THEME_KEY, theme);
    } catch {
      // not persisted; still applied
    }
    const resolved = resolveTheme(theme);
    apply(resolved);
    set({ theme, resolved });
  },
}));

/** Loads the saved choice, applies it, and follows the OS preference live. Returns a cleanup. */
export function initTheme(): () => void {
  const theme = readSavedTheme();
  const resolved = resolveTheme(theme);
  apply(resolved);
  themeStore.setState({ theme, resolved });

  if (typeof window.matchMedia !== 'function') return () => {};
  const media = window.matchMedia(DARK_QUERY);
  const onChange = () => {
    const { theme: current } = themeStore.getState();
    if (current !== 'system') return;
    const next = resolveTheme('system');
    apply(next);
    themeStore.setState({ resolved: next });
  };
  media.addEventListener('change', onChange);
  return () => media.removeEventListener('change', onChange);
}

export const useTheme = () => useStore(themeStore, (s) => s.theme);
export const useSetTheme = () => useStore(themeStore, (s) => s.setTheme);

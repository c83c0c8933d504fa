import { useSetTheme, useTheme, type Theme } from '@/lib/theme-store';
import './theme-switcher.css';

const options: { value: Theme; label: string; icon: string }[] = [
  { value: 'light', label: 'Light', icon: '☀' },
  { value: 'dark', label: 'Dark', icon: '☾' },
  { value: 'system', label: 'System', icon: '◐' },
];

export function ThemeSwitcher() {
  const theme = useTheme();
  const setTheme = useSetTheme();
  return (
    <div className="theme-switcher" role="group" aria-label="Theme">
      {options.map((option) => (
        <button
          key={option.value}
          type="button"
          className="theme-switcher__option"
          aria-pressed={theme === option.value}
          title={option.label}
          onClick={() => setTheme(option.value)}
        >
          <span aria-hidden="true" className="theme-switcher__icon">
            {option.icon}
          </span>
          <span className="theme-switcher__label">{option.label}</span>
        </button>
      ))}
    </div>
  );
}

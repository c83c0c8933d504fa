import { useRef, type KeyboardEvent } from 'react';

export type StatsTab = 'overview' | 'detailed';

export const STATS_TABS: ReadonlyArray<{ id: StatsTab; label: string }> = [
  { id: 'overview', label: 'Overview' },
  { id: 'detailed', label: 'Detailed Analysis' },
];

export const tabId = (tab: StatsTab) => `stats-tab-${tab}`;
export const panelId = (tab: StatsTab) => `stats-panel-${tab}`;

type StatsTabsProps = {
  selected: StatsTab;
  onSelect: (tab: StatsTab) => void;
};

/** An accessible tablist: arrow keys, Home and End move between the tabs (automatic activation). */
export function StatsTabs({ selected, onSelect }: StatsTabsProps) {
  const refs = useRef<Array<HTMLButtonElement | null>>([]);

  const onKeyDown = (event: KeyboardEvent<HTMLButtonElement>) => {
    const current = STATS_TABS.findIndex((tab) => tab.id === selected);
    const last = STATS_TABS.length - 1;
    const next =
      event.key === 'ArrowRight'
        ? (current + 1) % STATS_TABS.length
        : event.key === 'ArrowLeft'
          ? (current - 1 + STATS_TABS.length) % STATS_TABS.length
          : event.key === 'Home'
            ? 0
            : event.key === 'End'
              ? last
              : null;
    const tab = next === null ? undefined : STATS_TABS[next];
    if (next === null || !tab) return;
    event.preventDefault();
    onSelect(tab.id);
    refs.current[next]?.focus();
  };

  return (
    <div className="stats-tabs" role="tablist" aria-label="Statistics views">
      {STATS_TABS.map((tab, index) => {
        const isSelected = tab.id === selected;
        return (
          <button
            key={tab.id}
            ref={(element) => {
              refs.current[index] = element;
            }}
            type="button"
            role="tab"
            id={tabId(tab.id)}
            aria-selected={isSelected}
            aria-controls={panelId(tab.id)}
            tabIndex={isSelected ? 0 : -1}
            className={isSelected ? 'stats-tabs__tab stats-tabs__tab--active' : 'stats-tabs__tab'}
            onClick={() => onSelect(tab.id)}
            onKeyDown={onKeyDown}
          >
            {tab.label}
          </button>
        );
      })}
    </div>
  );
}

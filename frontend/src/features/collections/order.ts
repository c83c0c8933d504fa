/** The list with the item at `from` moved to `to` (both clamped into range); a new array. */
export function moveItem<T>(items: readonly T[], from: number, to: number): T[] {
  const next = [...items];
  if (from < 0 || from >= next.length) return next;
  const target = Math.max(0, Math.min(to, next.length - 1));
  const [moved] = next.splice(from, 1);
  if (moved === undefined) return [...items];
  next.splice(target, 0, moved);
  return next;
}

/** "3 GIFs", "1 GIF". */
export const gifCountLabel = (count: number) => `${count} ${count === 1 ? 'GIF' : 'GIFs'}`;

/** Display formatting shared by the screens (spec §9: KB with two decimals, heights as 3/4 of the width). */

/** `2048` → `"2.00 KB"` (base 1024, two decimals). */
export function formatKB(bytes: number): string {
  return `${(bytes / 1024).toFixed(2)} KB`;
}

/** Megabytes with two decimals, without the unit: `1572864` → `"1.50"`. */
export function toMB(bytes: number): string {
  return (bytes / (1024 * 1024)).toFixed(2);
}

/** The height shown for an image of this width: 3/4 of it, rounded. */
export function displayHeight(width: number): number {
  return Math.round((width * 3) / 4);
}

/** `"320 × 240"`: the width and the displayed (3/4) height. */
export function formatDimensions(width: number): string {
  return `${width} × ${displayHeight(width)}`;
}

/** A localised date and time for an ISO-8601 timestamp (the text itself when unreadable). */
export function formatDateTime(iso: string): string {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? iso : date.toLocaleString();
}

/** A localised date for an ISO-8601 timestamp (the text itself when unreadable). */
export function formatDate(iso: string): string {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? iso : date.toLocaleDateString();
}

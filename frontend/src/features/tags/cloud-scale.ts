/**
 * Font sizes of the tag cloud (spec §2, §9: 14 to 72 by count). The size is linear in the count
 * between the smallest count shown (14 px) and the largest (72 px). When every tag shown has the
 * same count (a single tag, too) there is no smallest or largest: all of them get the middle size,
 * 43 px, so that one tag is neither tiny nor a full-width banner.
 */
import type { TagDto } from '@/api/generated/TagDto';
import { cloudTags } from './tag-order';

export const CLOUD_MIN_FONT_PX = 14;
export const CLOUD_MAX_FONT_PX = 72;
export const CLOUD_EQUAL_FONT_PX = Math.round((CLOUD_MIN_FONT_PX + CLOUD_MAX_FONT_PX) / 2);

/** Five visual weights (font weight and colour), 1 the lightest, 5 the heaviest. */
export type CloudLevel = 1 | 2 | 3 | 4 | 5;

export type CloudEntry = TagDto & { fontSize: number; level: CloudLevel };

/** Where `count` sits between `min` and `max` (0 to 1), or null when they are equal. */
function position(count: number, min: number, max: number): number | null {
  if (max <= min) return null;
  return Math.min(1, Math.max(0, (count - min) / (max - min)));
}

/** The font size in whole pixels for a tag with `count` GIFs when the cloud's counts span min..max. */
export function cloudFontSize(count: number, min: number, max: number): number {
  const ratio = position(count, min, max);
  if (ratio === null) return CLOUD_EQUAL_FONT_PX;
  return Math.round(CLOUD_MIN_FONT_PX + ratio * (CLOUD_MAX_FONT_PX - CLOUD_MIN_FONT_PX));
}

/** The visual weight that goes with the size (equal counts: the middle one). */
export function cloudLevel(count: number, min: number, max: number): CloudLevel {
  const ratio = position(count, min, max);
  if (ratio === null) return 3;
  return (1 + Math.round(ratio * 4)) as CloudLevel;
}

/** The cloud: tags with count > 0, by count descending then name, each with its size and weight. */
export function buildCloud(tags: readonly TagDto[]): CloudEntry[] {
  const shown = cloudTags(tags);
  if (shown.length === 0) return [];
  const counts = shown.map((tag) => tag.count);
  const min = Math.min(...counts);
  const max = Math.max(...counts);
  return shown.map((tag) => ({
    ...tag,
    fontSize: cloudFontSize(tag.count, min, max),
    level: cloudLevel(tag.count, min, max),
  }));
}

/** "{name}: {n} GIFs" (one GIF: "1 GIF"), the title and accessible name of a cloud link. */
export const cloudTagLabel = (tag: Pick<TagDto, 'name' | 'count'>) =>
  `${tag.name}: ${tag.count} ${tag.count === 1 ? 'GIF' : 'GIFs'}`;

/**
 * The maker's rules without a screen: the choices it offers, frame-accurate trimming, crop
 * presets, the output's size, the size estimate and the recipe sent to `POST /api/make`. The
 * server checks every rule again; these only keep the form from sending what it would refuse.
 */

import type { MakeRecipeDto } from '@/api/generated/MakeRecipeDto';

/** Output widths in pixels; a crop narrower than the width asked keeps its own width. */
export const WIDTHS = [240, 320, 480, 640] as const;
export const FPS_CHOICES = [10, 15, 20, 25] as const;
export const SPEEDS = [0.5, 0.75, 1, 1.25, 1.5, 2] as const;
export const DIRECTIONS = ['forward', 'reverse', 'boomerang'] as const;
export type Direction = (typeof DIRECTIONS)[number];
export const CAPTION_POSITIONS = ['top', 'bottom'] as const;
export type CaptionPosition = (typeof CAPTION_POSITIONS)[number];
export const CAPTION_SIZES = ['s', 'm', 'l'] as const;
export type CaptionSize = (typeof CAPTION_SIZES)[number];

/** At most this many seconds of the source become a GIF. */
export const MAX_CLIP_SECS = 60;
/** The first clip offered: the start of the source, this long at most. */
export const DEFAULT_CLIP_SECS = 10;
export const CAPTION_MAX = 100;
/** A crop is at least this many source pixels wide and high. */
export const MIN_CROP_PX = 16;
/** A GIF's loop count is 16 bits; 0 plays forever. */
export const MAX_LOOPS = 65535;

export type Crop = { x: number; y: number; width: number; height: number };
export type Caption = { text: string; position: CaptionPosition; size: CaptionSize };

/** Aspect presets: `null` is free. */
export const ASPECTS = [
  { label: 'Free', ratio: null },
  { label: '1:1', ratio: 1 },
  { label: '4:3', ratio: 4 / 3 },
  { label: '16:9', ratio: 16 / 9 },
  { label: '9:16', ratio: 9 / 16 },
] as const;
export type AspectLabel = (typeof ASPECTS)[number]['label'];

/**
 * `POST /api/make`'s `recipe` part (times in seconds of the source, crop in source pixels). The
 * loop count's JSON key is `loop` (the server renames its `loops` field; the generated type does
 * not show the rename), and the maker screen has no link source.
 */
export type MakeRecipe = Omit<MakeRecipeDto, 'loops' | 'sourceUrl'> & { loop?: number };

/** Everything the form holds about the GIF to make. */
export type MakerSettings = {
  start: number;
  end: number;
  crop: Crop | null;
  width: number;
  fps: number;
  speed: number;
  direction: Direction;
  loop: number;
  caption: Caption;
};

/** `t` on the frame grid of `fps` (a whole number of frames from the source's start). */
export const snapToFrame = (t: number, fps: number) => Math.round(t * fps) / fps;

/** The last frame time of a source of `duration` seconds. */
export const lastFrame = (duration: number, fps: number) => Math.floor(duration * fps + 1e-6) / fps;

/** The settings for a new source: the first seconds of it, 480 px, 15 fps, forward, forever. */
export function initialSettings(duration: number): MakerSettings {
  const fps = 15;
  return {
    start: 0,
    end: lastFrame(Math.min(duration, DEFAULT_CLIP_SECS), fps),
    crop: null,
    width: 480,
    fps,
    speed: 1,
    direction: 'forward',
    loop: 0,
    caption: { text: '', position: 'bottom', size: 'm' },
  };
}

export type TrimHandle = 'start' | 'end';

/**
 * Moves one trim handle by `frames` frames (negative: earlier), kept on the frame grid, inside the
 * source and at least one frame from the other handle.
 */
export function moveTrim(
  settings: Pick<MakerSettings, 'start' | 'end' | 'fps'>,
  handle: TrimHandle,
  frames: number,
  duration: number,
): { start: number; end: number } {
  const { fps } = settings;
  const step = 1 / fps;
  const max = lastFrame(duration, fps);
  if (handle === 'start') {
    const start = clamp(snapToFrame(settings.start + frames * step, fps), 0, settings.end - step);
    return { start: snapToFrame(start, fps), end: settings.end };
  }
  const end = clamp(snapToFrame(settings.end + frames * step, fps), settings.start + step, max);
  return { start: settings.start, end: snapToFrame(end, fps) };
}

/** Sets one handle to `t` seconds (a click on the filmstrip), with `moveTrim`'s rules. */
export function setTrim(
  settings: Pick<MakerSettings, 'start' | 'end' | 'fps'>,
  handle: TrimHandle,
  t: number,
  duration: number,
) {
  const frames = Math.round((t - settings[handle]) * settings.fps);
  return moveTrim(settings, handle, frames, duration);
}

/** The trim snapped to a new frame rate. */
export function resnap(start: number, end: number, fps: number, duration: number) {
  const s = snapToFrame(start, fps);
  const e = Math.min(snapToFrame(end, fps), lastFrame(duration, fps));
  return { start: s, end: e > s ? e : snapToFrame(s + 1 / fps, fps) };
}

const clamp = (value: number, min: number, max: number) => Math.min(Math.max(value, min), max);

/** The largest crop of `ratio` centred in a `width` × `height` source. */
export function presetCrop(ratio: number, width: number, height: number): Crop {
  let w = width;
  let h = Math.round(w / ratio);
  if (h > height) {
    h = height;
    w = Math.round(h * ratio);
  }
  return { x: Math.floor((width - w) / 2), y: Math.floor((height - h) / 2), width: w, height: h };
}

/**
 * The crop a drag from `from` to `to` draws (source pixels), held to `ratio` when one is chosen
 * (the smaller side wins) and to the source's frame.
 */
export function dragCrop(
  from: { x: number; y: number },
  to: { x: number; y: number },
  ratio: number | null,
  bounds: { width: number; height: number },
): Crop {
  const tx = clamp(to.x, 0, bounds.width);
  const ty = clamp(to.y, 0, bounds.height);
  let w = Math.abs(tx - from.x);
  let h = Math.abs(ty - from.y);
  if (ratio !== null) {
    w = Math.min(w, h * ratio);
    h = w / ratio;
  }
  const x = tx < from.x ? from.x - w : from.x;
  const y = ty < from.y ? from.y - h : from.y;
  return { x: Math.round(x), y: Math.round(y), width: Math.round(w), height: Math.round(h) };
}

/** The crop moved by `dx`, `dy` source pixels, kept inside the frame. */
export function nudgeCrop(crop: Crop, dx: number, dy: number, bounds: { width: number; height: number }): Crop {
  return {
    ...crop,
    x: clamp(crop.x + dx, 0, bounds.width - crop.width),
    y: clamp(crop.y + dy, 0, bounds.height - crop.height),
  };
}

/** `crop` one step larger (`grow` > 0) or smaller along `axis`, at `ratio` when one is set, inside the frame. */
export function resizeCrop(
  crop: Crop,
  axis: 'x' | 'y',
  grow: number,
  ratio: number | null,
  bounds: { width: number; height: number },
): Crop {
  const clampTo = (value: number, max: number) => Math.min(Math.max(MIN_CROP_PX, value), max);
  if (ratio !== null) {
    const width = clampTo(crop.width + grow, Math.min(bounds.width - crop.x, (bounds.height - crop.y) * ratio));
    return { ...crop, width: Math.round(width), height: Math.round(width / ratio) };
  }
  return axis === 'x'
    ? { ...crop, width: clampTo(crop.width + grow, bounds.width - crop.x) }
    : { ...crop, height: clampTo(crop.height + grow, bounds.height - crop.y) };
}

/** The GIF's dimensions: the asked width (or the crop's own, when narrower) at the crop's aspect. */
export function outputSize(settings: Pick<MakerSettings, 'crop' | 'width'>, source: { width: number; height: number }) {
  const area = settings.crop ?? { width: source.width, height: source.height };
  const width = Math.max(1, Math.min(settings.width, area.width));
  const height = Math.max(1, Math.round((width * area.height) / Math.max(1, area.width)));
  return { width, height };
}

/** How many frames the GIF has: the clip played at `speed`, at `fps`; a boomerang plays it back too. */
export function frameCount(settings: Pick<MakerSettings, 'start' | 'end' | 'fps' | 'speed' | 'direction'>): number {
  const played = Math.max(0, settings.end - settings.start) / settings.speed;
  const frames = Math.max(1, Math.round(played * settings.fps));
  return settings.direction === 'boomerang' ? Math.max(1, 2 * frames - 2) : frames;
}

/**
 * Bytes per output pixel per frame of a typical GIF from the maker (an LZW-compressed 256-colour
 * frame of camera or screen footage): the estimate is a rough "about", documented in docs/maker.md.
 */
export const BYTES_PER_PIXEL_FRAME = 0.2;
/** A GIF's header, palette and loop block. */
const GIF_OVERHEAD_BYTES = 1024;

/** The estimated size of the GIF in bytes (`BYTES_PER_PIXEL_FRAME` × width × height × frames). */
export function estimateBytes(settings: MakerSettings, source: { width: number; height: number }): number {
  const { width, height } = outputSize(settings, source);
  return Math.round(GIF_OVERHEAD_BYTES + width * height * frameCount(settings) * BYTES_PER_PIXEL_FRAME);
}

// eslint-disable-next-line no-control-regex
const CONTROL_CHARS = /[\u0000-\u001f\u007f-\u009f]/;

/** Why the settings cannot be made into a GIF, or null. */
export function settingsProblem(settings: MakerSettings): string | null {
  if (settings.end <= settings.start) return MSG_END_BEFORE_START;
  if (settings.end - settings.start > MAX_CLIP_SECS + 1e-6) return MSG_CLIP_TOO_LONG;
  const crop = settings.crop;
  if (crop && (crop.width < MIN_CROP_PX || crop.height < MIN_CROP_PX)) return MSG_CROP_TOO_SMALL;
  if ([...settings.caption.text].length > CAPTION_MAX) return MSG_CAPTION_TOO_LONG;
  if (CONTROL_CHARS.test(settings.caption.text)) return MSG_CAPTION_CONTROL;
  if (!Number.isInteger(settings.loop) || settings.loop < 0 || settings.loop > MAX_LOOPS) return MSG_BAD_LOOPS;
  return null;
}

export const MSG_END_BEFORE_START = 'The end must come after the start.';
export const MSG_CLIP_TOO_LONG = `A GIF can use at most ${MAX_CLIP_SECS} s of its source.`;
export const MSG_CROP_TOO_SMALL = `A crop must be at least ${MIN_CROP_PX} px wide and high.`;
export const MSG_CAPTION_TOO_LONG = `A caption has at most ${CAPTION_MAX} characters.`;
export const MSG_CAPTION_CONTROL = 'A caption cannot hold control characters (line breaks, tabs).';
export const MSG_BAD_LOOPS = `Loops must be a whole number from 0 (forever) to ${MAX_LOOPS}.`;

const round3 = (t: number) => Math.round(t * 1000) / 1000;

/** The `recipe` part for these settings: blank caption and no crop left out, times to the millisecond. */
export function buildRecipe(settings: MakerSettings, gifId: number | null): MakeRecipe {
  const caption = settings.caption.text.trim();
  return {
    ...(gifId !== null ? { gifId } : {}),
    start: round3(settings.start),
    end: round3(settings.end),
    ...(settings.crop ? { crop: settings.crop } : {}),
    width: settings.width,
    fps: settings.fps,
    speed: settings.speed,
    direction: settings.direction,
    loop: settings.loop,
    ...(caption ? { caption: { ...settings.caption, text: caption } } : {}),
  };
}

/** `1.2` → `"1.20 s"`. */
export const formatSeconds = (t: number) => `${t.toFixed(2)} s`;

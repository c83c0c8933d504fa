import { describe, expect, it } from 'vitest';
import {
  MSG_CAPTION_CONTROL,
  MSG_CLIP_TOO_LONG,
  MSG_CROP_TOO_SMALL,
  buildRecipe,
  dragCrop,
  estimateBytes,
  frameCount,
  initialSettings,
  moveTrim,
  nudgeCrop,
  outputSize,
  presetCrop,
  resizeCrop,
  resnap,
  settingsProblem,
} from './recipe';

const source = { width: 1280, height: 720 };

describe('trim', () => {
  it('starts on the first 10 s of a long source, the whole of a short one', () => {
    expect(initialSettings(120)).toMatchObject({ start: 0, end: 10, fps: 15, width: 480, loop: 0, direction: 'forward' });
    expect(initialSettings(2.5).end).toBeCloseTo(2.4667, 3); // the last whole frame at 15 fps
  });

  it('moves a handle by whole frames, never past the other or out of the source', () => {
    const at = { start: 1, end: 2, fps: 10 };
    expect(moveTrim(at, 'start', 1, 5)).toEqual({ start: 1.1, end: 2 });
    expect(moveTrim(at, 'end', -3, 5)).toEqual({ start: 1, end: 1.7 });
    expect(moveTrim(at, 'start', 50, 5)).toEqual({ start: 1.9, end: 2 });
    expect(moveTrim(at, 'start', -50, 5)).toEqual({ start: 0, end: 2 });
    expect(moveTrim(at, 'end', 100, 5)).toEqual({ start: 1, end: 5 });
  });

  it('snaps to the new grid when the fps changes', () => {
    expect(resnap(1.1, 2.3, 4, 10)).toEqual({ start: 1, end: 2.25 });
  });
});

describe('crop', () => {
  it('presets take the largest centred crop of their shape', () => {
    expect(presetCrop(1, 1280, 720)).toEqual({ x: 280, y: 0, width: 720, height: 720 });
    expect(presetCrop(16 / 9, 1280, 720)).toEqual({ x: 0, y: 0, width: 1280, height: 720 });
    expect(presetCrop(9 / 16, 1280, 720)).toEqual({ x: 437, y: 0, width: 405, height: 720 });
    expect(presetCrop(4 / 3, 1280, 720)).toEqual({ x: 160, y: 0, width: 960, height: 720 });
  });

  it('a drag draws a rectangle in either direction, held to the ratio and the frame', () => {
    expect(dragCrop({ x: 100, y: 100 }, { x: 300, y: 250 }, null, source)).toEqual({ x: 100, y: 100, width: 200, height: 150 });
    expect(dragCrop({ x: 300, y: 250 }, { x: 100, y: 100 }, null, source)).toEqual({ x: 100, y: 100, width: 200, height: 150 });
    expect(dragCrop({ x: 100, y: 100 }, { x: 300, y: 250 }, 1, source)).toEqual({ x: 100, y: 100, width: 150, height: 150 });
    expect(dragCrop({ x: 1200, y: 700 }, { x: 5000, y: 5000 }, null, source)).toEqual({ x: 1200, y: 700, width: 80, height: 20 });
  });

  it('moves and resizes inside the frame', () => {
    const crop = { x: 10, y: 10, width: 100, height: 100 };
    expect(nudgeCrop(crop, -50, 0, source)).toMatchObject({ x: 0, y: 10 });
    expect(nudgeCrop(crop, 5000, 5000, source)).toMatchObject({ x: 1180, y: 620 });
    expect(resizeCrop(crop, 'x', 20, null, source)).toEqual({ ...crop, width: 120 });
    expect(resizeCrop(crop, 'y', -200, null, source)).toEqual({ ...crop, height: 16 });
    expect(resizeCrop(crop, 'x', 20, 1, source)).toEqual({ ...crop, width: 120, height: 120 });
  });
});

describe('output', () => {
  const settings = initialSettings(60);

  it('keeps the asked width unless the crop is narrower, at the crop aspect', () => {
    expect(outputSize(settings, source)).toEqual({ width: 480, height: 270 });
    expect(outputSize({ ...settings, crop: { x: 0, y: 0, width: 200, height: 100 } }, source)).toEqual({ width: 200, height: 100 });
    expect(outputSize({ ...settings, width: 240, crop: { x: 0, y: 0, width: 720, height: 720 } }, source)).toEqual({ width: 240, height: 240 });
  });

  it('counts frames at the fps and speed; a boomerang plays the clip back too', () => {
    const clip = { start: 0, end: 2, fps: 10, speed: 1, direction: 'forward' as const };
    expect(frameCount(clip)).toBe(20);
    expect(frameCount({ ...clip, speed: 2 })).toBe(10);
    expect(frameCount({ ...clip, speed: 0.5 })).toBe(40);
    expect(frameCount({ ...clip, direction: 'boomerang' })).toBe(38);
  });

  it('estimates about 0.2 bytes per pixel per frame', () => {
    const bytes = estimateBytes({ ...settings, start: 0, end: 2, fps: 10 }, source);
    expect(bytes).toBe(Math.round(1024 + 480 * 270 * 20 * 0.2));
  });
});

describe('problems and the recipe', () => {
  const settings = initialSettings(120);

  it.each([
    [{ end: 70, start: 5 }, MSG_CLIP_TOO_LONG],
    [{ crop: { x: 0, y: 0, width: 15, height: 100 } }, MSG_CROP_TOO_SMALL],
    [{ caption: { text: 'a\nb', position: 'top' as const, size: 'm' as const } }, MSG_CAPTION_CONTROL],
  ])('refuses %o', (patch, message) => {
    expect(settingsProblem({ ...settings, ...patch })).toBe(message);
  });

  it('sends times, crop, output and a trimmed caption; leaves out a blank caption', () => {
    const crop = { x: 1, y: 2, width: 300, height: 200 };
    const caption = { text: '  nope  ', position: 'top' as const, size: 'l' as const };
    expect(buildRecipe({ ...settings, start: 1 / 3, crop, caption }, 7)).toEqual({
      gifId: 7,
      start: 0.333,
      end: 10,
      crop,
      width: 480,
      fps: 15,
      speed: 1,
      direction: 'forward',
      loop: 0,
      caption: { text: 'nope', position: 'top', size: 'l' },
    });
    expect(buildRecipe(settings, null)).not.toHaveProperty('caption');
    expect(buildRecipe(settings, null)).not.toHaveProperty('gifId');
    expect(buildRecipe(settings, null)).not.toHaveProperty('crop');
  });
});

import { useEffect, useRef, useState, type KeyboardEvent, type PointerEvent } from 'react';
import { filmstrip, imageFilmstrip } from './media';
import { formatSeconds, lastFrame, moveTrim, setTrim, type TrimHandle } from './recipe';
import type { MakerSource } from './source';
import { MAKER_TEXTS } from './texts';

/** How many pictures the filmstrip shows. */
export const FILMSTRIP_FRAMES = 10;

type TrimBarProps = {
  source: MakerSource;
  start: number;
  end: number;
  fps: number;
  /** The clip's output frames (for the summary line). */
  frames: number;
  onTrim: (trim: { start: number; end: number }) => void;
};

/** The filmstrip's pictures: a hidden video sought to each moment, or an image's frames decoded. */
function useFilmstrip(source: MakerSource): string[] {
  const [frames, setFrames] = useState<string[]>([]);
  useEffect(() => {
    setFrames([]);
    let current = true;
    const pictures =
      source.kind === 'video'
        ? filmstrip(source.url, source.duration, FILMSTRIP_FRAMES)
        : imageFilmstrip(source.url, source.file, FILMSTRIP_FRAMES);
    pictures.then(
      (made) => current && setFrames(made),
      () => undefined,
    );
    return () => {
      current = false;
    };
  }, [source.kind, source.url, source.file, source.duration]);
  return frames;
}

/** Frames a key moves a handle by: arrows one, Page Up/Down one second; Home/End to the ends. */
function keyFrames(key: string, fps: number, total: number): number | null {
  switch (key) {
    case 'ArrowLeft':
    case 'ArrowDown':
      return -1;
    case 'ArrowRight':
    case 'ArrowUp':
      return 1;
    case 'PageDown':
      return -fps;
    case 'PageUp':
      return fps;
    case 'Home':
      return -total;
    case 'End':
      return total;
    default:
      return null;
  }
}

/**
 * The filmstrip under the player with start and end handles: sliders on the frame grid of the
 * chosen fps, dragged or moved with the keyboard, their values shown in seconds.
 */
export function TrimBar({ source, start, end, fps, frames, onTrim }: TrimBarProps) {
  const pictures = useFilmstrip(source);
  const track = useRef<HTMLDivElement>(null);
  const dragging = useRef<TrimHandle | null>(null);
  const duration = source.duration;
  const max = lastFrame(duration, fps);
  const at = (t: number) => `${(100 * t) / duration}%`;

  const timeAt = (event: PointerEvent) => {
    const rect = track.current?.getBoundingClientRect();
    if (!rect || rect.width === 0) return 0;
    return Math.min(Math.max(0, (event.clientX - rect.left) / rect.width), 1) * duration;
  };
  const onPointerDown = (event: PointerEvent<HTMLDivElement>) => {
    const t = timeAt(event);
    const handle: TrimHandle = Math.abs(t - start) <= Math.abs(t - end) ? 'start' : 'end';
    dragging.current = handle;
    event.currentTarget.setPointerCapture?.(event.pointerId);
    onTrim(setTrim({ start, end, fps }, handle, t, duration));
  };
  const onPointerMove = (event: PointerEvent<HTMLDivElement>) => {
    if (dragging.current) onTrim(setTrim({ start, end, fps }, dragging.current, timeAt(event), duration));
  };
  const onKeyDown = (handle: TrimHandle) => (event: KeyboardEvent) => {
    const by = keyFrames(event.key, fps, Math.ceil(duration * fps));
    if (by === null) return;
    event.preventDefault();
    onTrim(moveTrim({ start, end, fps }, handle, by, duration));
  };

  const handle = (name: TrimHandle, value: number, label: string) => (
    <div
      role="slider"
      tabIndex={0}
      className={`trim__handle trim__handle--${name}`}
      style={{ left: at(value) }}
      aria-label={label}
      aria-valuemin={0}
      aria-valuemax={Number(max.toFixed(3))}
      aria-valuenow={Number(value.toFixed(3))}
      aria-valuetext={formatSeconds(value)}
      onKeyDown={onKeyDown(name)}
    />
  );

  return (
    <div className="panel trim" role="group" aria-labelledby="trim-title">
      <h2 id="trim-title" className="detail-section__title">
        {MAKER_TEXTS.trim}
      </h2>
      <div
        ref={track}
        className="trim__track"
        onPointerDown={onPointerDown}
        onPointerMove={onPointerMove}
        onPointerUp={() => (dragging.current = null)}
        data-testid="filmstrip"
      >
        <div className="trim__frames" aria-hidden="true">
          {pictures.map((picture, i) => (
            <img key={i} src={picture} alt="" className="trim__frame" />
          ))}
        </div>
        <div className="trim__shade" style={{ left: 0, width: at(start) }} aria-hidden="true" />
        <div className="trim__shade" style={{ left: at(end), right: 0 }} aria-hidden="true" />
        <div className="trim__range" style={{ left: at(start), width: at(end - start) }} aria-hidden="true" />
        {handle('start', start, MAKER_TEXTS.start)}
        {handle('end', end, MAKER_TEXTS.end)}
      </div>
      <TrimValues start={start} end={end} frames={frames} />
      <p className="field__help">{MAKER_TEXTS.trimHint}</p>
    </div>
  );
}

/** The trim's values in seconds and the clip's length. */
function TrimValues({ start, end, frames }: { start: number; end: number; frames: number }) {
  return (
    <p className="trim__values">
      <span>
        {MAKER_TEXTS.start} <strong data-testid="trim-start">{formatSeconds(start)}</strong>
      </span>
      <span>{MAKER_TEXTS.clip(formatSeconds(end - start), frames)}</span>
      <span>
        {MAKER_TEXTS.end} <strong data-testid="trim-end">{formatSeconds(end)}</strong>
      </span>
    </p>
  );
}

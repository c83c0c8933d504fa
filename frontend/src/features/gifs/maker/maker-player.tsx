import { useEffect, useRef, useState, type KeyboardEvent, type PointerEvent } from 'react';
import { dragCrop, nudgeCrop, resizeCrop, type Caption, type Crop } from './recipe';
import type { MakerSource } from './source';
import { MAKER_TEXTS } from './texts';

type MakerPlayerProps = {
  source: MakerSource;
  start: number;
  end: number;
  crop: Crop | null;
  /** The chosen aspect preset's ratio (width / height), or null for free. */
  ratio: number | null;
  caption: Caption;
  onCrop: (crop: Crop | null) => void;
};

const percent = (value: number, of: number) => `${(100 * value) / of}%`;

/** Loops the trimmed clip, and shows the frame a trim handle moved to. */
function useClipPlayback(start: number, end: number) {
  const video = useRef<HTMLVideoElement>(null);
  const [playing, setPlaying] = useState(true);
  const range = useRef({ start, end });
  range.current = { start, end };

  // A moved start plays from there; a moved end pauses on its frame (not when the clip first shows).
  const shownEnd = useRef(end);
  useEffect(() => {
    if (video.current) video.current.currentTime = start;
  }, [start]);
  useEffect(() => {
    const element = video.current;
    if (!element || shownEnd.current === end) return;
    shownEnd.current = end;
    element.pause();
    setPlaying(false);
    element.currentTime = end;
  }, [end]);

  const onTimeUpdate = () => {
    const element = video.current;
    if (!element) return;
    const { start: from, end: to } = range.current;
    if (element.currentTime >= to || element.currentTime < from - 0.05) element.currentTime = from;
  };
  const toggle = () => {
    const element = video.current;
    if (!element) return;
    if (element.paused) {
      if (element.currentTime >= range.current.end) element.currentTime = range.current.start;
      void element.play()?.catch(() => undefined);
      setPlaying(true);
    } else {
      element.pause();
      setPlaying(false);
    }
  };
  return { video, playing, onTimeUpdate, toggle };
}

/** Draws a crop with the pointer over the stage, in source pixels. */
function useCropDrag(source: MakerSource, crop: Crop | null, ratio: number | null, onCrop: (crop: Crop | null) => void) {
  const stage = useRef<HTMLDivElement>(null);
  const drag = useRef<{ from: { x: number; y: number }; before: Crop | null } | null>(null);

  const toSource = (event: PointerEvent) => {
    const rect = stage.current?.getBoundingClientRect();
    if (!rect || rect.width === 0) return { x: 0, y: 0 };
    return {
      x: ((event.clientX - rect.left) / rect.width) * source.width,
      y: ((event.clientY - rect.top) / rect.height) * source.height,
    };
  };
  const bounds = { width: source.width, height: source.height };

  return {
    stage,
    onPointerDown: (event: PointerEvent<HTMLDivElement>) => {
      if (event.button !== 0) return;
      event.currentTarget.setPointerCapture?.(event.pointerId);
      drag.current = { from: toSource(event), before: crop };
    },
    onPointerMove: (event: PointerEvent<HTMLDivElement>) => {
      if (drag.current) onCrop(dragCrop(drag.current.from, toSource(event), ratio, bounds));
    },
    onPointerUp: (event: PointerEvent<HTMLDivElement>) => {
      const started = drag.current;
      drag.current = null;
      if (!started) return;
      const drawn = dragCrop(started.from, toSource(event), ratio, bounds);
      // A click (no real drag) keeps the crop there was.
      onCrop(drawn.width < 3 && drawn.height < 3 ? started.before : drawn);
    },
  };
}

/** Arrow keys move the crop by 1% of the picture; with Shift, Right and Down make it larger, Left and Up smaller. */
function cropKeys(source: MakerSource, crop: Crop, ratio: number | null, onCrop: (crop: Crop) => void) {
  return (event: KeyboardEvent) => {
    const step = Math.max(1, Math.round(Math.min(source.width, source.height) / 100));
    const moves: Record<string, [number, number]> = {
      ArrowLeft: [-step, 0],
      ArrowRight: [step, 0],
      ArrowUp: [0, -step],
      ArrowDown: [0, step],
    };
    const move = moves[event.key];
    if (!move) return;
    event.preventDefault();
    const bounds = { width: source.width, height: source.height };
    const [dx, dy] = move;
    onCrop(event.shiftKey ? resizeCrop(crop, dx !== 0 ? 'x' : 'y', dx + dy, ratio, bounds) : nudgeCrop(crop, dx, dy, bounds));
  };
}

/** The caption as it will look, drawn over the part of the picture the GIF keeps. */
function CaptionPreview({ caption }: { caption: Caption }) {
  if (!caption.text.trim()) return null;
  return (
    <p className={`maker-caption maker-caption--${caption.position} maker-caption--${caption.size}`} data-testid="caption-preview">
      {caption.text}
    </p>
  );
}

/** The source playing (its trimmed clip, looped), a crop drawn over it, and the caption's preview. */
export function MakerPlayer({ source, start, end, crop, ratio, caption, onCrop }: MakerPlayerProps) {
  const playback = useClipPlayback(start, end);
  const dragging = useCropDrag(source, crop, ratio, onCrop);
  const box = crop ?? { x: 0, y: 0, width: source.width, height: source.height };

  return (
    <div className="maker-player">
      <div
        ref={dragging.stage}
        className="maker-player__stage"
        style={{
          aspectRatio: `${source.width} / ${source.height}`,
          width: `min(100%, calc(60vh * ${source.width / source.height}))`,
        }}
        onPointerDown={dragging.onPointerDown}
        onPointerMove={dragging.onPointerMove}
        onPointerUp={dragging.onPointerUp}
        data-testid="maker-stage"
      >
        {source.kind === 'video' ? (
          <video
            ref={playback.video}
            className="maker-player__media"
            src={source.url}
            muted
            autoPlay
            playsInline
            onTimeUpdate={playback.onTimeUpdate}
            aria-label={source.title}
          />
        ) : (
          <img className="maker-player__media" src={source.url} alt={source.title} draggable={false} />
        )}
        <div
          className={crop ? 'maker-crop maker-crop--set' : 'maker-crop'}
          style={{
            left: percent(box.x, source.width),
            top: percent(box.y, source.height),
            width: percent(box.width, source.width),
            height: percent(box.height, source.height),
          }}
          {...(crop
            ? { tabIndex: 0, role: 'group', 'aria-label': MAKER_TEXTS.cropArea, onKeyDown: cropKeys(source, crop, ratio, onCrop) }
            : {})}
          data-testid="crop-box"
        >
          <CaptionPreview caption={caption} />
        </div>
      </div>
      {source.kind === 'video' && (
        <button type="button" className="btn btn--secondary btn--small maker-player__play" onClick={playback.toggle}>
          {playback.playing ? 'Pause' : 'Play'}
        </button>
      )}
    </div>
  );
}

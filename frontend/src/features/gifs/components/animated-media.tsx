import { useEffect, useMemo, useRef, useState, type ComponentType, type FocusEvent, type ReactNode } from 'react';
import type { GifDto } from '@/api/generated/GifDto';
import { usePrefersReducedMotion } from '@/lib/reduced-motion';
import { useNearViewport } from '../hooks/use-near-viewport';
import { chooseMedia, type MediaSize } from '../renditions';
import { ProgressiveImage } from './progressive-image';
import type { StreamedImageProps } from './streamed-image';

type AnimatedMediaProps = {
  gif: GifDto;
  /** `small` on the gallery cards (thumbnail, small videos), `full` on the detail page. */
  size: MediaSize;
  alt: string;
  /** On the `<img>` or `<video>` itself. */
  className?: string;
  loading?: 'lazy' | 'eager';
  decoding?: 'async' | 'sync' | 'auto';
  /**
   * Under `prefers-reduced-motion: reduce` the still shows until this is true: hover, keyboard
   * focus or a tap on the surrounding element (see `useMotionGate`). Ignored otherwise.
   */
  active?: boolean;
  /**
   * The gallery's first card, the likely largest image in view: its still loads at once with high
   * priority (the others lazily), and the animation of any card only after its still.
   */
  priority?: boolean;
  /**
   * How the full size paints its image: the detail page passes `StreamedImage` (its poster, then
   * the animation over it), which so stays in that page's chunk, out of the gallery's bundle.
   * Without it the full size loads like a card.
   */
  streamed?: ComponentType<StreamedImageProps>;
  /** With `streamed`: its poster has been painted (see `StreamedImageProps.onPosterShown`). */
  onPosterShown?: () => void;
};

/**
 * A GIF, played from its smallest animated rendition the browser supports: a muted, looping video
 * (with the GIF as fallback) when the server prefers a video for this size, its animated WebP in a
 * `<picture>` (the GIF as fallback) when it prefers that, else the GIF `<img>` (static thumbnail
 * first) as always. Under reduced motion, the still until `active`.
 */
export function AnimatedMedia({
  gif,
  size,
  alt,
  className,
  loading,
  decoding,
  active = false,
  priority = false,
  streamed: Streamed,
  onPosterShown,
}: AnimatedMediaProps) {
  const reduced = usePrefersReducedMotion();
  const choice = useMemo(() => chooseMedia(gif, size), [gif, size]);
  const [videoFailed, setVideoFailed] = useState(false);

  if (reduced && !active) {
    return (
      <img
        className={className}
        src={choice.still}
        alt={alt}
        loading={loading}
        decoding={decoding}
        data-motion="still"
        {...(priority && highPriority)}
      />
    );
  }
  if (choice.videos.length === 0 || videoFailed) {
    const image = {
      className,
      // Under reduced motion the still is already loaded: keep it until the GIF is.
      placeholder: reduced ? choice.still : choice.placeholder,
      src: choice.gif,
      alt,
      loading,
      decoding,
    };
    // The detail page's one large image: its poster first, then the animation painted over it as
    // it arrives (its WebP when that is the smaller file, the GIF for a browser without WebP or
    // should it fail).
    if (size === 'full' && Streamed)
      return (
        <Streamed
          {...image}
          poster={choice.poster}
          sources={choice.images}
          onPosterShown={onPosterShown}
          {...highPriority}
        />
      );
    // A card's animation waits for its still (and, when lazy, for the viewport).
    return <ProgressiveImage {...image} stillFirst {...(priority && highPriority)} />;
  }
  return (
    <LoopingVideo
      className={className}
      poster={choice.still}
      sources={choice.videos}
      lazy={loading === 'lazy'}
      label={alt}
      onUnplayable={() => setVideoFailed(true)}
    >
      {/* Only for browsers without <video>: never loaded otherwise (lazy and not rendered). */}
      <img src={choice.gif} alt={alt} loading="lazy" decoding={decoding} />
    </LoopingVideo>
  );
}

/** `fetchpriority="high"` (React 18 knows no `fetchPriority` prop; the attribute passes through). */
const highPriority = { fetchpriority: 'high' } as Record<string, string>;

function LoopingVideo({
  className,
  poster,
  sources,
  lazy,
  label,
  onUnplayable,
  children,
}: {
  className: string | undefined;
  poster: string;
  sources: { src: string; type: string }[];
  lazy: boolean;
  label: string;
  onUnplayable: () => void;
  children: ReactNode;
}) {
  const ref = useRef<HTMLVideoElement | null>(null);
  const near = useNearViewport(ref, lazy);
  useEffect(() => {
    const video = ref.current;
    if (!video) return;
    // React sets `muted` as a property only; autoplay policies (iOS) read the attribute.
    video.muted = true;
    video.defaultMuted = true;
    video.setAttribute('muted', '');
  }, []);
  return (
    <video
      ref={ref}
      className={className}
      // A video has no lazy loading: its poster, too, waits until the card nears the viewport.
      poster={near ? poster : undefined}
      autoPlay
      muted
      loop
      playsInline
      aria-label={label}
      data-motion="video"
    >
      {/* Sources are added once the card nears the viewport (the browser then starts loading). */}
      {near &&
        sources.map((source, index) => (
          <source
            key={source.src}
            src={source.src}
            type={source.type}
            // The last source failing means the browser could play none of them: show the GIF.
            onError={index === sources.length - 1 ? onUnplayable : undefined}
          />
        ))}
      {children}
    </video>
  );
}

/**
 * Hover, keyboard focus inside, or a tap on the element that spreads `handlers`: what starts a
 * GIF under reduced motion (`AnimatedMedia`'s `active`). Leaving (pointer out, focus out) stops it.
 */
export function useMotionGate() {
  const [pointer, setPointer] = useState(false);
  const [focus, setFocus] = useState(false);
  const handlers = useMemo(
    () => ({
      onMouseEnter: () => setPointer(true),
      onMouseLeave: () => setPointer(false),
      onTouchStart: () => setPointer(true),
      onFocus: () => setFocus(true),
      onBlur: (event: FocusEvent<HTMLElement>) => {
        const next = event.relatedTarget;
        if (!(next instanceof Node && event.currentTarget.contains(next))) setFocus(false);
      },
    }),
    [],
  );
  return { active: pointer || focus, handlers };
}

/** What `useMotionGate` gives: whether motion may play, and the handlers that decide it. */
export type MotionGate = ReturnType<typeof useMotionGate>;

import { useRef, useState, type ImgHTMLAttributes } from 'react';
import { useImageLoaded } from '../hooks/use-image-loaded';
import { useNearViewport } from '../hooks/use-near-viewport';

type ProgressiveImageProps = Omit<ImgHTMLAttributes<HTMLImageElement>, 'src'> & {
  /** Shown first (the static thumbnail). */
  placeholder: string;
  /** Shown once it has loaded (the animated thumbnail or the original). */
  src: string;
  alt: string;
  /** Fetch the full image only after the still has loaded (and, when lazy, once near the viewport). */
  stillFirst?: boolean;
};

/**
 * A still first, then the full image as soon as the browser has it. With `stillFirst` (the
 * gallery's cards) the full image is fetched only once the still has loaded and, with
 * `loading="lazy"`, the card is near the viewport: a page of cards asks for the stills first and
 * then the animations of the cards in view, instead of every animation at once ahead of the stills.
 */
export function ProgressiveImage({
  placeholder,
  src,
  alt,
  loading,
  stillFirst = false,
  onLoad,
  onError,
  ...img
}: ProgressiveImageProps) {
  const ref = useRef<HTMLImageElement>(null);
  const near = useNearViewport(ref, stillFirst && loading === 'lazy');
  const [stillDone, setStillDone] = useState(!stillFirst);
  const loaded = useImageLoaded(src, near && stillDone);
  return (
    <img
      {...img}
      ref={ref}
      loading={loading}
      src={loaded ? src : placeholder}
      alt={alt}
      data-loaded={loaded ? 'true' : 'false'}
      onLoad={(event) => {
        setStillDone(true);
        onLoad?.(event);
      }}
      onError={(event) => {
        // No still to wait for: the animation is all there is.
        setStillDone(true);
        onError?.(event);
      }}
    />
  );
}

type StreamedImageProps = Omit<ImgHTMLAttributes<HTMLImageElement>, 'src'> & {
  /** Painted behind the image until it has loaded (the static thumbnail). */
  placeholder: string;
  /** The image itself, requested at once. */
  src: string;
  alt: string;
  /**
   * Played instead of `src` by a browser that takes their type (the animated WebP): the image
   * becomes a `<picture>`, `src` its fallback.
   */
  sources?: readonly { src: string; type: string }[];
};

/**
 * The full image from the first byte, over its still: the browser paints the GIF as it arrives
 * (its first frame long before its last byte) on top of the static thumbnail, which is dropped once
 * the GIF has loaded so that a GIF's transparent pixels show what is behind the frame, not the
 * still. For the one large image of a page (the detail page's GIF): its first frame is what the
 * reader waits for, not the whole file.
 */
export function StreamedImage({ placeholder, src, alt, style, onLoad, sources = [], ...img }: StreamedImageProps) {
  const [loadedSrc, setLoadedSrc] = useState<string | null>(null);
  const loaded = loadedSrc === src;
  const image = (
    <img
      {...img}
      src={src}
      alt={alt}
      data-loaded={loaded ? 'true' : 'false'}
      style={loaded ? style : { ...style, ...stillBehind(placeholder) }}
      onLoad={(event) => {
        setLoadedSrc(src);
        onLoad?.(event);
      }}
    />
  );
  if (sources.length === 0) return image;
  // The <picture> takes the place of the <img> in the layout (`.streamed-picture`).
  return (
    <picture className="streamed-picture">
      {sources.map((source) => (
        <source key={source.src} srcSet={source.src} type={source.type} />
      ))}
      {image}
    </picture>
  );
}

const stillBehind = (still: string) => ({
  backgroundImage: `url("${still}")`,
  backgroundSize: 'contain',
  backgroundPosition: 'center',
  backgroundRepeat: 'no-repeat',
});

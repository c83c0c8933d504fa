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

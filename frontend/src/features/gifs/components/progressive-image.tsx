import type { ImgHTMLAttributes } from 'react';
import { useImageLoaded } from '../hooks/use-image-loaded';

type ProgressiveImageProps = Omit<ImgHTMLAttributes<HTMLImageElement>, 'src'> & {
  /** Shown first (the static thumbnail). */
  placeholder: string;
  /** Shown once it has loaded (the animated thumbnail or the original). */
  src: string;
  alt: string;
};

/** A still first, then the full image as soon as the browser has it. */
export function ProgressiveImage({ placeholder, src, alt, ...img }: ProgressiveImageProps) {
  const loaded = useImageLoaded(src);
  return (
    <img {...img} src={loaded ? src : placeholder} alt={alt} data-loaded={loaded ? 'true' : 'false'} />
  );
}

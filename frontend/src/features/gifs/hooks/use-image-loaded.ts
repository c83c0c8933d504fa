import { useEffect, useState } from 'react';

/**
 * True once `src` has loaded, preloaded through an Image object (false again when src changes).
 * Nothing is fetched while `enabled` is false.
 */
export function useImageLoaded(src: string, enabled = true): boolean {
  const [loadedSrc, setLoadedSrc] = useState<string | null>(null);
  useEffect(() => {
    if (!enabled) return;
    let active = true;
    const image = new Image();
    image.onload = () => {
      if (active) setLoadedSrc(src);
    };
    image.src = src;
    return () => {
      active = false;
      image.onload = null;
    };
  }, [src, enabled]);
  return loadedSrc === src;
}

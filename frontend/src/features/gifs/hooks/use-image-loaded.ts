import { useEffect, useState } from 'react';

/** True once `src` has loaded, preloaded through an Image object (false again when src changes). */
export function useImageLoaded(src: string): boolean {
  const [loadedSrc, setLoadedSrc] = useState<string | null>(null);
  useEffect(() => {
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
  }, [src]);
  return loadedSrc === src;
}

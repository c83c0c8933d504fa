import { useEffect, useState, type RefObject } from 'react';

/** True once the element comes within 200px of the viewport (at once when not lazy or without IntersectionObserver). */
export function useNearViewport(ref: RefObject<Element | null>, lazy: boolean): boolean {
  const [near, setNear] = useState(() => !lazy || typeof IntersectionObserver === 'undefined');
  useEffect(() => {
    const element = ref.current;
    if (near || !element) return;
    const observer = new IntersectionObserver(
      (entries) => {
        if (entries.some((entry) => entry.isIntersecting)) {
          setNear(true);
          observer.disconnect();
        }
      },
      { rootMargin: '200px' },
    );
    observer.observe(element);
    return () => observer.disconnect();
  }, [near, ref]);
  return near;
}

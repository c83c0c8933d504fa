import { useState, type ImgHTMLAttributes } from 'react';

export type StreamedImageProps = Omit<ImgHTMLAttributes<HTMLImageElement>, 'src'> & {
  /** Painted behind the image until it has loaded (the static thumbnail). */
  placeholder: string;
  /** The image itself, requested at once (or once the poster shows). */
  src: string;
  alt: string;
  /**
   * Played instead of `src` by a browser that takes their type (the animated WebP): the image
   * becomes a `<picture>`, `src` its fallback.
   */
  sources?: readonly { src: string; type: string }[];
  /**
   * The first frame at display size (a few kilobytes): shown alone first, then under the image,
   * in place of `placeholder`. `src` is asked for only once it has been painted (or has failed).
   */
  poster?: string | null;
  /** Called once the poster has been painted (or has failed): the page's first picture is up. */
  onPosterShown?: () => void;
};

/**
 * The full image from the first byte, over its still: the browser paints the GIF as it arrives
 * (its first frame long before its last byte) on top of the still, which is dropped once the GIF
 * has loaded so that a GIF's transparent pixels show what is behind the frame, not the still. For
 * the one large image of a page (the detail page's GIF). With a `poster` the page first shows that
 * alone, its picture at full size after a few kilobytes, and asks for the animation (hundreds of
 * kilobytes) only once the poster has been painted: on a slow network the two do not share the
 * bandwidth. It stays one `<img>` throughout, so the poster's paint is the page's largest one and
 * the animation that replaces it, the same size, is not a later one.
 */
export function StreamedImage({
  poster = null,
  placeholder,
  src,
  alt,
  style,
  onLoad,
  onError,
  sources = [],
  onPosterShown,
  ...img
}: StreamedImageProps) {
  const [posterOnly, setPosterOnly] = useState(poster !== null);
  const [loadedSrc, setLoadedSrc] = useState<string | null>(null);
  const loaded = !posterOnly && loadedSrc === src;
  // Two frames later the poster has been painted (a state change in its load event would replace
  // it before the browser paints it).
  const posterShown = () => {
    setPosterOnly(false);
    onPosterShown?.();
  };
  const afterPaint = () => requestAnimationFrame(() => requestAnimationFrame(posterShown));
  const image = (
    <img
      {...img}
      src={posterOnly && poster ? poster : src}
      alt={alt}
      data-loaded={loaded ? 'true' : 'false'}
      style={loaded || posterOnly ? style : { ...style, ...stillBehind(poster ?? placeholder) }}
      onLoad={(event) => {
        if (posterOnly) {
          afterPaint();
          return;
        }
        setLoadedSrc(src);
        onLoad?.(event);
      }}
      onError={(event) => {
        // No poster to show: the animation is all there is.
        if (posterOnly) posterShown();
        else onError?.(event);
      }}
    />
  );
  if (sources.length === 0) return image;
  // The <picture> takes the place of the <img> in the layout (`.streamed-picture`); its sources
  // join once the poster has been painted.
  return (
    <picture className="streamed-picture">
      {!posterOnly &&
        sources.map((source) => <source key={source.src} srcSet={source.src} type={source.type} />)}
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

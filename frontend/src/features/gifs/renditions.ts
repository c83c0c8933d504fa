import type { GifDto } from '@/api/generated/GifDto';
import type { RenditionDto } from '@/api/generated/RenditionDto';
import { formatKB } from '@/lib/format';
import { gifMedia } from './api/query-keys';

/** The two sizes the screens play: `small` on the gallery cards, `full` on the detail page. */
export type MediaSize = 'small' | 'full';
type Kind = RenditionDto['kind'];

const GIF_KINDS: Record<MediaSize, readonly Kind[]> = { small: ['thumbnail'], full: ['original', 'medium'] };
const VIDEO_KINDS: Record<MediaSize, readonly Kind[]> = {
  small: ['mp4_small', 'webm_small'],
  full: ['mp4', 'webm'],
};
const ALL_VIDEO_KINDS: readonly Kind[] = [...VIDEO_KINDS.full, ...VIDEO_KINDS.small];
/** The animated WebPs (lossy, with alpha) the screens may play instead of the GIF. */
const WEBP_KINDS: Record<MediaSize, readonly Kind[]> = { small: [], full: ['webp'] };

export const isVideoRendition = (rendition: RenditionDto) => ALL_VIDEO_KINDS.includes(rendition.kind);

export type VideoSource = { src: string; type: string };

/** What a screen shows for one GIF at one size. */
export type MediaChoice = {
  /** The animated GIF (the `<img>`, and the fallback inside a video). */
  gif: string;
  /** Shown while the GIF loads (the static thumbnail, as before renditions existed). */
  placeholder: string;
  /** The first frame: the video's poster and the still shown under reduced motion. */
  still: string;
  /**
   * The first frame at the detail page's display size (the `poster` rendition, a still WebP), for
   * the full size only: painted first, the animation asked for once it shows. `null` when the GIF
   * has none (a server without ffmpeg, a GIF the renditions job has not reached yet).
   */
  poster: string | null;
  /** `<source>`s, smallest first; empty when the GIF (or its WebP) is what to play. */
  videos: VideoSource[];
  /**
   * `<picture>` `<source>`s played instead of the GIF (the animated WebP, with its transparency,
   * when the server prefers it for this size); empty when the GIF itself plays.
   */
  images: VideoSource[];
};

const bySize = (a: RenditionDto, b: RenditionDto) => a.size - b.size;

/** `video/webm; codecs="vp9"` when the codec is known and unambiguous, else the plain content type. */
function sourceType(rendition: RenditionDto): string {
  if (rendition.codec === 'vp9' && rendition.contentType === 'video/webm') return 'video/webm; codecs="vp9"';
  return rendition.contentType;
}

/**
 * The smallest animated file of `size` a browser should play. When the size's preferred rendition
 * is a video, every video of that size smaller than the size's (smallest) GIF becomes a source,
 * smallest first, so the browser takes the smallest it can play; when it is the animated WebP (a
 * transparent animation's smallest file), that is the `<picture>`'s source with the GIF as its
 * fallback; otherwise the GIF plays as it always did (`/api/gifs/thumbnail|content/{id}`).
 */
export function chooseMedia(gif: GifDto, size: MediaSize): MediaChoice {
  const renditions = gif.renditions ?? [];
  const ofSize = renditions.filter((r) =>
    [GIF_KINDS, VIDEO_KINDS, WEBP_KINDS].some((kinds) => kinds[size].includes(r.kind)),
  );
  const smallestGif = ofSize.filter((r) => GIF_KINDS[size].includes(r.kind)).sort(bySize)[0];
  const gifBytes = smallestGif?.size ?? (size === 'small' ? gif.thumbnailSize : gif.contentSize);
  const preferred = ofSize.find((r) => r.preferred);
  const videos =
    preferred && isVideoRendition(preferred)
      ? ofSize
          .filter((r) => VIDEO_KINDS[size].includes(r.kind) && (r.size < gifBytes || r === preferred))
          .sort(bySize)
          .map((r) => ({ src: r.url, type: sourceType(r) }))
      : [];
  const poster = size === 'full' ? (renditions.find((r) => r.kind === 'poster')?.url ?? null) : null;
  return {
    gif: size === 'small' ? gifMedia.thumbnail(gif.id) : gifMedia.content(gif.id),
    placeholder: gifMedia.staticThumbnail(gif.id),
    still: poster ?? renditions.find((r) => r.kind === 'still')?.url ?? gifMedia.staticThumbnail(gif.id),
    poster,
    videos,
    images:
      preferred && WEBP_KINDS[size].includes(preferred.kind) ? [{ src: preferred.url, type: preferred.contentType }] : [],
  };
}

const FILE_LABELS: Partial<Record<Kind, string>> = {
  mp4: 'MP4',
  webm: 'WebM',
  webp: 'WebP',
  mp4_small: 'MP4 (small)',
  webm_small: 'WebM (small)',
};
/** The files the "Files" list names: full size first, then small. */
const FILE_KINDS: readonly Kind[] = [...VIDEO_KINDS.full, ...WEBP_KINDS.full, ...VIDEO_KINDS.small];

/**
 * The video files and the animated WebP of a GIF for the detail page's "Files" list: full size
 * first, then small.
 */
export function videoFiles(gif: GifDto): { kind: Kind; url: string; label: string; details: string }[] {
  return FILE_KINDS.flatMap((kind) => {
    const rendition = (gif.renditions ?? []).find((r) => r.kind === kind);
    if (!rendition) return [];
    return [
      {
        kind,
        url: rendition.url,
        label: FILE_LABELS[kind] ?? kind,
        details: `${rendition.width} × ${rendition.height} · ${formatKB(rendition.size)}`,
      },
    ];
  });
}

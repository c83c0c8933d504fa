import { act, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { RenditionDto } from '@/api/generated/RenditionDto';
import { makeGif } from '@/test/gifs';
import { AnimatedMedia, useMotionGate } from './animated-media';
import { StreamedImage } from './streamed-image';

function rendition(kind: RenditionDto['kind'], size: number, extra: Partial<RenditionDto> = {}): RenditionDto {
  const video = kind.startsWith('mp4') || kind.startsWith('webm');
  const ext = video ? (kind.startsWith('mp4') ? 'mp4' : 'webm') : kind === 'still' || kind === 'poster' || kind.startsWith('webp') ? 'webp' : 'gif';
  return {
    kind,
    url: `/api/gifs/7/files/${kind}.${ext}`,
    contentType: video ? `video/${ext}` : ext === 'webp' ? 'image/webp' : 'image/gif',
    width: kind.endsWith('_small') || kind === 'thumbnail' || kind === 'still' ? 320 : 480,
    height: kind.endsWith('_small') || kind === 'thumbnail' || kind === 'still' ? 180 : 270,
    size,
    frames: kind === 'still' || kind === 'poster' ? 1 : 24,
    durationMs: 2400,
    codec: kind.startsWith('mp4') ? 'h264' : kind.startsWith('webm') ? 'vp9' : null,
    preferred: false,
    ...extra,
  };
}

const STILL = '/api/gifs/7/files/still.webp';

/** A photo-like GIF: both videos of each size smaller than its GIF, the smallest preferred. */
const withVideos = makeGif(7, {
  title: 'Sunset',
  renditions: [
    rendition('original', 900_000),
    rendition('thumbnail', 300_000),
    rendition('still', 9_000),
    rendition('mp4', 120_000, { preferred: true }),
    rendition('webm', 150_000),
    rendition('webm_small', 40_000, { preferred: true }),
    rendition('mp4_small', 50_000),
  ],
});

/** A cartoon: the GIFs are the smallest; the videos exist but are bigger. */
const gifPreferred = makeGif(7, {
  title: 'Cartoon',
  renditions: [
    rendition('original', 50_000, { preferred: true }),
    rendition('thumbnail', 20_000, { preferred: true }),
    rendition('still', 3_000),
    rendition('mp4', 80_000),
    rendition('mp4_small', 30_000),
  ],
});

type Listener = () => void;

/** A controllable `prefers-reduced-motion: reduce` media query. */
function mockReducedMotion(initially: boolean) {
  let reduce = initially;
  const listeners = new Set<Listener>();
  vi.stubGlobal('matchMedia', (query: string) => ({
    get matches() {
      return query === '(prefers-reduced-motion: reduce)' && reduce;
    },
    media: query,
    addEventListener: (_: string, l: Listener) => listeners.add(l),
    removeEventListener: (_: string, l: Listener) => listeners.delete(l),
  }));
  return {
    set(value: boolean) {
      reduce = value;
      act(() => listeners.forEach((l) => l()));
    },
  };
}

/** What the card and the detail page do: the gate's handlers on a surrounding element. */
function Gated({ size = 'small' as const, gif = withVideos }) {
  const motion = useMotionGate();
  return (
    <div data-testid="frame" {...motion.handlers}>
      <AnimatedMedia gif={gif} size={size} alt={gif.title} className="media" active={motion.active} loading="lazy" />
      <a href="/gifs/7">{gif.title}</a>
    </div>
  );
}

const video = () => document.querySelector('video');
const sources = () => Array.from(document.querySelectorAll('video > source')).map((s) => [s.getAttribute('src'), s.getAttribute('type')]);

afterEach(() => vi.unstubAllGlobals());

describe('AnimatedMedia', () => {
  it('plays the small videos smallest first, with the still as poster and the GIF inside as fallback', () => {
    render(<AnimatedMedia gif={withVideos} size="small" alt="Sunset" className="gif-card__image" loading="lazy" />);
    const element = video()!;
    expect(element).not.toBeNull();
    expect(element).toHaveAttribute('poster', STILL);
    expect(element).toHaveAttribute('autoplay');
    expect(element).toHaveAttribute('loop');
    expect(element).toHaveAttribute('playsinline');
    expect(element).toHaveAttribute('muted');
    expect(element.muted).toBe(true);
    expect(element).toHaveClass('gif-card__image');
    expect(sources()).toEqual([
      ['/api/gifs/7/files/webm_small.webm', 'video/webm; codecs="vp9"'],
      ['/api/gifs/7/files/mp4_small.mp4', 'video/mp4'],
    ]);
    const fallback = element.querySelector('img')!;
    expect(fallback).toHaveAttribute('src', '/api/gifs/thumbnail/7');
    expect(fallback).toHaveAttribute('alt', 'Sunset');
    expect(fallback).toHaveAttribute('loading', 'lazy');
  });

  it('the full size plays mp4 and webm of full size, and leaves out a video bigger than the GIF', () => {
    const gif = makeGif(7, {
      renditions: [
        rendition('original', 200_000),
        rendition('medium', 100_000),
        rendition('still', 9_000),
        rendition('mp4', 60_000, { preferred: true }),
        rendition('webm', 140_000),
        rendition('mp4_small', 10_000),
      ],
    });
    render(<AnimatedMedia gif={gif} size="full" streamed={StreamedImage} alt="Gif 7" />);
    expect(sources()).toEqual([['/api/gifs/7/files/mp4.mp4', 'video/mp4']]);
    expect(video()!.querySelector('img')).toHaveAttribute('src', '/api/gifs/content/7');
  });

  it('shows the GIF <img> as before when the GIF is preferred', () => {
    render(<AnimatedMedia gif={gifPreferred} size="small" alt="Cartoon" className="gif-card__image" loading="lazy" />);
    expect(video()).toBeNull();
    const img = screen.getByRole('img', { name: 'Cartoon' });
    expect(img).toHaveAttribute('src', '/api/gifs/static-thumbnail/7');
    expect(img).toHaveAttribute('loading', 'lazy');
    expect(img).toHaveClass('gif-card__image');
  });

  it('shows the GIF <img> at once over its still when there is no video (new GIFs, still images)', () => {
    const gif = makeGif(7, {
      renditions: [
        rendition('original', 50_000, { preferred: true }),
        rendition('thumbnail', 20_000, { preferred: true }),
        rendition('still', 3_000),
      ],
    });
    render(<AnimatedMedia gif={gif} size="full" streamed={StreamedImage} alt="New" className="image-frame__img" />);
    expect(video()).toBeNull();
    const img = screen.getByRole('img', { name: 'New' });
    // The browser paints the GIF as it arrives, its first frame long before its last byte...
    expect(img).toHaveAttribute('src', '/api/gifs/content/7');
    expect(img).toHaveAttribute('fetchpriority', 'high');
    expect(img).toHaveAttribute('data-loaded', 'false');
    // ...over the still, which goes once the GIF has loaded (its transparent pixels stay clear).
    expect(img.style.backgroundImage).toBe('url("/api/gifs/static-thumbnail/7")');
    fireEvent.load(img);
    expect(img).toHaveAttribute('data-loaded', 'true');
    expect(img.style.backgroundImage).toBe('');
  });

  it('plays a transparent animation from its WebP in a <picture>, the GIF its fallback', () => {
    const sticker = makeGif(7, {
      title: 'Rainbow',
      renditions: [
        rendition('original', 420_000),
        rendition('medium', 300_000),
        rendition('webp', 140_000, { preferred: true }),
        rendition('thumbnail', 90_000, { preferred: true }),
        rendition('still', 9_000),
        rendition('mp4', 60_000),
      ],
    });
    const { unmount } = render(<AnimatedMedia gif={sticker} size="full" streamed={StreamedImage} alt="Rainbow" className="image-frame__img" />);
    expect(video()).toBeNull();
    const img = screen.getByRole('img', { name: 'Rainbow' });
    const picture = img.parentElement!;
    expect(picture.tagName).toBe('PICTURE');
    const source = picture.querySelector('source')!;
    expect(source).toHaveAttribute('srcset', '/api/gifs/7/files/webp.webp');
    expect(source).toHaveAttribute('type', 'image/webp');
    // A browser without WebP plays the GIF, over its still as before.
    expect(img).toHaveAttribute('src', '/api/gifs/content/7');
    expect(img.style.backgroundImage).toBe('url("/api/gifs/static-thumbnail/7")');
    fireEvent.load(img);
    expect(img.style.backgroundImage).toBe('');
    unmount();

    // The cards have no WebP of their size: their GIF thumbnail, no <picture>.
    render(<AnimatedMedia gif={sticker} size="small" alt="Rainbow" />);
    expect(screen.getByRole('img', { name: 'Rainbow' }).parentElement!.tagName).not.toBe('PICTURE');
  });

  it('paints the poster alone first, then streams the animation over it in the same <img>', async () => {
    const sticker = makeGif(7, {
      title: 'Rainbow',
      renditions: [
        rendition('original', 420_000),
        rendition('webp', 140_000, { preferred: true }),
        rendition('thumbnail', 90_000, { preferred: true }),
        rendition('still', 9_000),
        rendition('poster', 12_000, { width: 480, height: 270 }),
      ],
    });
    render(<AnimatedMedia gif={sticker} size="full" streamed={StreamedImage} alt="Rainbow" className="image-frame__img" />);
    // A few kilobytes at the frame's size, alone: the animation is not asked for yet.
    const img = screen.getByRole('img', { name: 'Rainbow' });
    expect(img).toHaveAttribute('src', '/api/gifs/7/files/poster.webp');
    expect(img).toHaveAttribute('fetchpriority', 'high');
    expect(img).toHaveClass('image-frame__img');
    expect(img.parentElement!.querySelector('source')).toBeNull();
    // Once it has been painted, the animation (its WebP) streams in over it.
    fireEvent.load(img);
    await waitFor(() => expect(img).toHaveAttribute('src', '/api/gifs/content/7'));
    expect(screen.getByRole('img', { name: 'Rainbow' })).toBe(img);
    expect(img.parentElement!.querySelector('source')).toHaveAttribute('srcset', '/api/gifs/7/files/webp.webp');
    expect(img.style.backgroundImage).toBe('url("/api/gifs/7/files/poster.webp")');
    expect(img).toHaveAttribute('data-loaded', 'false');
    fireEvent.load(img);
    expect(img).toHaveAttribute('data-loaded', 'true');
    expect(img.style.backgroundImage).toBe('');
  });

  it('asks for the animation even when the poster fails to load', () => {
    const gif = makeGif(7, {
      renditions: [rendition('original', 50_000, { preferred: true }), rendition('poster', 4_000)],
    });
    render(<AnimatedMedia gif={gif} size="full" streamed={StreamedImage} alt="Broken poster" />);
    fireEvent.error(screen.getByRole('img', { name: 'Broken poster' }));
    expect(screen.getByRole('img', { name: 'Broken poster' })).toHaveAttribute('src', '/api/gifs/content/7');
  });

  it('falls back to the GIF when the browser can play none of the sources', () => {
    render(<AnimatedMedia gif={withVideos} size="small" alt="Sunset" />);
    const last = document.querySelectorAll('video > source')[1]!;
    fireEvent.error(last);
    expect(video()).toBeNull();
    expect(screen.getByRole('img', { name: 'Sunset' })).toHaveAttribute('src', '/api/gifs/static-thumbnail/7');
  });

  describe('under prefers-reduced-motion: reduce', () => {
    it('shows the still until hovered, plays while hovered, and the still again when the pointer leaves', () => {
      mockReducedMotion(true);
      render(<Gated />);
      const still = screen.getByRole('img', { name: 'Sunset' });
      expect(still).toHaveAttribute('src', STILL);
      expect(still).toHaveAttribute('data-motion', 'still');
      expect(still).toHaveClass('media');
      expect(video()).toBeNull();

      fireEvent.mouseEnter(screen.getByTestId('frame'));
      expect(video()).toHaveAttribute('poster', STILL);
      expect(screen.queryByRole('img', { name: 'Sunset' })?.closest('video')).toBe(video());

      fireEvent.mouseLeave(screen.getByTestId('frame'));
      expect(video()).toBeNull();
      expect(screen.getByRole('img', { name: 'Sunset' })).toHaveAttribute('src', STILL);
    });

    it('the detail page shows the poster, the first frame at its size, as its still', () => {
      mockReducedMotion(true);
      const gif = makeGif(7, {
        title: 'Poster',
        renditions: [...withVideos.renditions, rendition('poster', 12_000)],
      });
      render(<AnimatedMedia gif={gif} size="full" streamed={StreamedImage} alt="Poster" />);
      expect(screen.getByRole('img', { name: 'Poster' })).toHaveAttribute('src', '/api/gifs/7/files/poster.webp');
    });

    it('plays while the keyboard focus is inside, and stops when it leaves', () => {
      mockReducedMotion(true);
      render(
        <>
          <Gated />
          <button type="button">elsewhere</button>
        </>,
      );
      const link = screen.getByRole('link', { name: 'Sunset' });
      act(() => link.focus());
      expect(video()).not.toBeNull();
      act(() => screen.getByRole('button', { name: 'elsewhere' }).focus());
      expect(video()).toBeNull();
      expect(screen.getByRole('img', { name: 'Sunset' })).toHaveAttribute('src', STILL);
    });

    it('plays on a tap', () => {
      mockReducedMotion(true);
      render(<Gated />);
      fireEvent.touchStart(screen.getByTestId('frame'));
      expect(video()).not.toBeNull();
    });

    it('a GIF without videos shows its still, then the animated GIF on hover', () => {
      mockReducedMotion(true);
      render(<Gated gif={gifPreferred} />);
      expect(screen.getByRole('img', { name: 'Cartoon' })).toHaveAttribute('src', STILL);
      fireEvent.mouseEnter(screen.getByTestId('frame'));
      const img = screen.getByRole('img', { name: 'Cartoon' });
      expect(img).not.toHaveAttribute('data-motion', 'still');
      // The still stays until the animated thumbnail has loaded.
      expect(img).toHaveAttribute('src', STILL);
      expect(img).toHaveAttribute('data-loaded', 'false');
    });

    it('follows the OS setting live', () => {
      const motion = mockReducedMotion(false);
      render(<Gated />);
      expect(video()).not.toBeNull();
      motion.set(true);
      expect(video()).toBeNull();
      expect(screen.getByRole('img', { name: 'Sunset' })).toHaveAttribute('src', STILL);
    });
  });
});

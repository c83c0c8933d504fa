import { Link } from 'react-router-dom';
import type { GifDto } from '@/api/generated/GifDto';
import { paths } from '@/app/paths';
import { displayHeight, formatDateTime, formatDimensions, formatKB } from '@/lib/format';
import { gifMedia } from '../api/query-keys';
import { favouritesLabel, sharesLabel, viewsLabel } from '../gallery';
import { videoFiles } from '../renditions';
import { AnimatedMedia, type MotionGate } from './animated-media';
import { FavouriteStar } from './favourite-star';
import { StreamedImage } from './streamed-image';
import { TagLinks } from './tag-links';
import type { Rendition } from './rendition-modal';
import { ratingLabel } from './rating-field';

type GifFigureProps = {
  gif: GifDto;
  /** Shown at its natural size rather than in the fixed frame. */
  natural: boolean;
  onToggleNatural: () => void;
  /** Under reduced motion the GIF shows its still until the figure is hovered, focused or tapped. */
  motion: MotionGate;
  /** Its poster has been painted (see `StreamedImage`). */
  onPosterShown?: () => void;
};

/** The GIF itself, its size and dimensions, and the natural/fixed size switch. */
export function GifFigure({ gif, natural, onToggleNatural, motion, onPosterShown }: GifFigureProps) {
  return (
    <figure className="panel gif-detail__figure" {...motion.handlers}>
      <div className={natural ? 'image-frame image-frame--natural' : 'image-frame'}>
        <AnimatedMedia
          gif={gif}
          size="full"
          className="image-frame__img"
          alt={gif.title}
          active={motion.active}
          streamed={StreamedImage}
          onPosterShown={onPosterShown}
        />
      </div>
      <figcaption className="gif-detail__caption">
        <span>
          {formatKB(gif.contentSize)} · {formatDimensions(gif.contentWidth)}
        </span>
        <button type="button" className="btn btn--secondary btn--small" onClick={onToggleNatural}>
          {natural ? 'Show Fixed Size' : 'Show Natural Size'}
        </button>
      </figcaption>
    </figure>
  );
}

/** The three image renditions every GIF has, smallest first. */
function gifRenditions(gif: GifDto): Rendition[] {
  return [
    {
      label: 'Static Thumbnail',
      src: gifMedia.staticThumbnail(gif.id),
      size: gif.thumbnailStaticSize,
      width: gif.thumbnailStaticWidth,
    },
    { label: 'Thumbnail', src: gifMedia.thumbnail(gif.id), size: gif.thumbnailSize, width: gif.thumbnailWidth },
    {
      label: 'Original Gif',
      src: gifMedia.content(gif.id),
      // The tile is a hundred pixels wide: the animated thumbnail, which the Thumbnail tile loads
      // anyway, rather than the whole original (often hundreds of kilobytes) on every detail page.
      preview: gifMedia.thumbnail(gif.id),
      size: gif.contentSize,
      width: gif.contentWidth,
    },
  ];
}

type RenditionListProps = {
  gif: GifDto;
  onOpen: (rendition: Rendition) => void;
  /** Load the tiles' pictures (false: their frames stay empty, the page's own picture goes first). */
  showImages?: boolean;
};

/** The renditions as buttons, each opening its image in a dialog (`onOpen`). */
export function RenditionList({ gif, onOpen, showImages = true }: RenditionListProps) {
  return (
    <section className="panel gif-detail__renditions" aria-labelledby="renditions-title">
      <h2 id="renditions-title" className="detail-section__title">
        Renditions
      </h2>
      <ul className="renditions">
        {gifRenditions(gif).map((rendition) => (
          <li key={rendition.label}>
            <button type="button" className="rendition" onClick={() => onOpen(rendition)} aria-haspopup="dialog">
              <span className="rendition__media">
                {showImages && (
                  <img src={rendition.preview ?? rendition.src} alt="" className="rendition__img" loading="lazy" />
                )}
              </span>
              <span className="rendition__label">{rendition.label}</span>
              <span className="rendition__meta">
                {formatKB(rendition.size)} · {formatDimensions(rendition.width)}
              </span>
            </button>
          </li>
        ))}
      </ul>
    </section>
  );
}

/** The GIF's videos and animated WebP (once the renditions job has made them), each a link to its file. */
export function VideoFiles({ gif }: { gif: GifDto }) {
  const files = videoFiles(gif);
  if (files.length === 0) return null;
  return (
    <section className="panel gif-detail__files" aria-labelledby="files-title">
      <h2 id="files-title" className="detail-section__title">
        Files
      </h2>
      <ul className="files">
        {files.map((file) => (
          <li key={file.kind} className="files__item">
            <a href={file.url} className="files__link" target="_blank" rel="noopener">
              {file.label}
            </a>
            <span className="files__meta">
              {' · '}
              {file.details}
            </span>
          </li>
        ))}
      </ul>
    </section>
  );
}

/** Description, tags, the favourite star and the counters. */
export function GifAbout({ gif }: { gif: GifDto }) {
  return (
    <section className="panel gif-detail__about">
      {gif.description && <p className="gif-detail__description">{gif.description}</p>}
      <TagLinks tags={gif.tags} className="tag-list" />
      <div className="gif-detail__favourite">
        <FavouriteStar gif={gif} />
        <span data-testid="favourite-count">{favouritesLabel(gif.favouriteCount)}</span>
      </div>
      <p className="gif-detail__stats">
        <span>{viewsLabel(gif.viewCount)}</span>
        <span aria-hidden="true">·</span>
        <span data-testid="share-count">{sharesLabel(gif.shareCount)}</span>
        <span aria-hidden="true">·</span>
        <time dateTime={gif.uploadedAt}>{formatDateTime(gif.uploadedAt)}</time>
      </p>
    </section>
  );
}

/** "Text in this GIF": the words read in it, or as its owner or an admin wrote them; nothing when none. */
export function TextInGif({ gif }: { gif: GifDto }) {
  const text = gif.captionText?.trim();
  if (!text) return null;
  return (
    <section className="panel gif-detail__text" aria-labelledby="gif-text-title">
      <h2 id="gif-text-title" className="detail-section__title">
        Text in this GIF
      </h2>
      <p className="gif-detail__text-body">{text}</p>
    </section>
  );
}

/** "File Information": uploader, then size and dimensions of each image rendition, type and frames. */
export function FileInformation({ gif }: { gif: GifDto }) {
  return (
    <section className="panel gif-detail__info" aria-labelledby="file-info-title">
      <h2 id="file-info-title" className="detail-section__title">
        File Information
      </h2>
      <dl className="file-info">
        <dt>Uploaded by</dt>
        <dd>
          <Link to={paths.user(gif.uploadedBy)}>{gif.uploadedBy}</Link>
        </dd>
        <dt>Rating</dt>
        <dd>{ratingLabel(gif.rating)}</dd>
        <dt>Content size</dt>
        <dd>{formatKB(gif.contentSize)}</dd>
        <dt>Content width</dt>
        <dd>{gif.contentWidth}px</dd>
        <dt>Content height</dt>
        <dd>{displayHeight(gif.contentWidth)}px</dd>
        <dt>Thumbnail size</dt>
        <dd>{formatKB(gif.thumbnailSize)}</dd>
        <dt>Thumbnail width</dt>
        <dd>{gif.thumbnailWidth}px</dd>
        <dt>Thumbnail height</dt>
        <dd>{displayHeight(gif.thumbnailWidth)}px</dd>
        <dt>Static thumbnail size</dt>
        <dd>{formatKB(gif.thumbnailStaticSize)}</dd>
        <dt>Static thumbnail width</dt>
        <dd>{gif.thumbnailStaticWidth}px</dd>
        <dt>Static thumbnail height</dt>
        <dd>{displayHeight(gif.thumbnailStaticWidth)}px</dd>
        <dt>Type</dt>
        <dd>{gif.contentType}</dd>
        <dt>Frames</dt>
        <dd>{gif.frameCount}</dd>
      </dl>
    </section>
  );
}

/** "Made from {title}", linking to the source GIF, when this GIF was made from another. */
export function MadeFrom({ gif }: { gif: GifDto }) {
  const source = gif.madeFrom;
  if (!source) return null;
  return (
    <p className="panel gif-detail__made-from">
      Made from <Link to={paths.gif(source.id)}>{source.title}</Link>
    </p>
  );
}

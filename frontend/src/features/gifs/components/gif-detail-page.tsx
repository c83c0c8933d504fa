import { useQueryClient } from '@tanstack/react-query';
import { useState, type ReactNode } from 'react';
import { Link, useNavigate, useParams } from 'react-router-dom';
import type { GifDto } from '@/api/generated/GifDto';
import { paths } from '@/app/paths';
import { AddGifToCollection } from '@/components/add-to-collection/add-to-collection-menu';
import { useToast } from '@/components/toast/toast-provider';
import { ApiError, errorMessage } from '@/lib/api-client';
import { displayHeight, formatDateTime, formatDimensions, formatKB } from '@/lib/format';
import { useIsAdmin, useUsername } from '@/lib/session';
import { useDeleteGif } from '../api/delete-gif';
import { useGif } from '../api/get-gif';
import { gifMedia } from '../api/query-keys';
import { favouritesLabel, sharesLabel, viewsLabel } from '../gallery';
import { videoFiles } from '../renditions';
import { forgetGif } from '../gif-list-cache';
import { gifPermissions } from '../permissions';
import { EditGifForm } from './edit-gif-form';
import { FavouriteStar } from './favourite-star';
import { AnimatedMedia, useMotionGate } from './animated-media';
import { RenditionModal, type Rendition } from './rendition-modal';
import { EmbedCodes } from './embed-codes';
import { LooksLike } from './looks-like';
import './gifs.css';

export const MSG_DELETE_CONFIRM = 'Are you sure you want to delete this GIF?';
export const MSG_GIF_DELETED = 'GIF deleted successfully';

const parseId = (raw: string | undefined): number | null =>
  raw && /^\d+$/.test(raw) ? Number(raw) : null;

/** /gifs/:id — the GIF, its renditions, file information, share link, and owner actions. */
export function GifDetailPage() {
  const { id: rawId } = useParams();
  const id = parseId(rawId);
  const gif = useGif(id ?? 0, id !== null);

  if (id === null || (gif.isError && gif.error instanceof ApiError && gif.error.status === 404)) {
    return (
      <DetailMessage>
        <p className="gallery__empty" role="status">
          GIF not found
        </p>
      </DetailMessage>
    );
  }
  if (gif.isPending) {
    return (
      <p className="state-line" role="status">
        Loading GIF...
      </p>
    );
  }
  if (gif.isError) {
    return (
      <DetailMessage>
        <p className="form-message form-message--error" role="alert">
          {errorMessage(gif.error, 'Failed to load GIF')}
        </p>
      </DetailMessage>
    );
  }
  return <GifDetail key={gif.data.id} gif={gif.data} />;
}

function DetailMessage({ children }: { children: ReactNode }) {
  return (
    <div className="detail-message">
      {children}
      <Link to={paths.gifs} className="btn btn--secondary">
        Back to Gallery
      </Link>
    </div>
  );
}

/** The GIF's video renditions (once the renditions job has made them), each a link to its file. */
function VideoFiles({ gif }: { gif: GifDto }) {
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

function GifDetail({ gif }: { gif: GifDto }) {
  const navigate = useNavigate();
  const toast = useToast();
  const username = useUsername();
  const isAdmin = useIsAdmin();
  const remove = useDeleteGif();
  const queryClient = useQueryClient();
  const [editing, setEditing] = useState(false);
  const [natural, setNatural] = useState(false);
  const [opened, setOpened] = useState<Rendition | null>(null);
  // Under reduced motion the GIF shows its still until the figure is hovered, focused or tapped.
  const motion = useMotionGate();
  const { canEdit, canDelete } = gifPermissions(gif, username, isAdmin);

  if (editing) return <EditGifForm gif={gif} onDone={() => setEditing(false)} />;

  const renditions: Rendition[] = [
    {
      label: 'Static Thumbnail',
      src: gifMedia.staticThumbnail(gif.id),
      size: gif.thumbnailStaticSize,
      width: gif.thumbnailStaticWidth,
    },
    { label: 'Thumbnail', src: gifMedia.thumbnail(gif.id), size: gif.thumbnailSize, width: gif.thumbnailWidth },
    { label: 'Original Gif', src: gifMedia.content(gif.id), size: gif.contentSize, width: gif.contentWidth },
  ];

  const onDelete = () => {
    if (!window.confirm(MSG_DELETE_CONFIRM)) return;
    remove.mutate(gif.id, {
      onSuccess: () => {
        toast.success(MSG_GIF_DELETED);
        void Promise.resolve(navigate(paths.home)).then(() => forgetGif(queryClient, gif.id));
      },
      onError: (error) => toast.error(errorMessage(error, 'Failed to delete GIF')),
    });
  };

  return (
    <article className="gif-detail" aria-labelledby="gif-title">
      <h1 id="gif-title" className="page-title gif-detail__title">
        {gif.title}
      </h1>

      <div className="gif-detail__layout">
        <div className="gif-detail__main">
          <figure className="panel gif-detail__figure" {...motion.handlers}>
            <div className={natural ? 'image-frame image-frame--natural' : 'image-frame'}>
              <AnimatedMedia
                gif={gif}
                size="full"
                className="image-frame__img"
                alt={gif.title}
                active={motion.active}
              />
            </div>
            <figcaption className="gif-detail__caption">
              <span>
                {formatKB(gif.contentSize)} · {formatDimensions(gif.contentWidth)}
              </span>
              <button
                type="button"
                className="btn btn--secondary btn--small"
                onClick={() => setNatural((n) => !n)}
              >
                {natural ? 'Show Fixed Size' : 'Show Natural Size'}
              </button>
            </figcaption>
          </figure>

          <section className="panel gif-detail__renditions" aria-labelledby="renditions-title">
            <h2 id="renditions-title" className="detail-section__title">
              Renditions
            </h2>
            <ul className="renditions">
              {renditions.map((rendition) => (
                <li key={rendition.label}>
                  <button
                    type="button"
                    className="rendition"
                    onClick={() => setOpened(rendition)}
                    aria-haspopup="dialog"
                  >
                    <span className="rendition__media">
                      <img src={rendition.src} alt="" className="rendition__img" loading="lazy" />
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

          <VideoFiles gif={gif} />
        </div>

        <aside className="gif-detail__side">
          <section className="panel gif-detail__about">
            {gif.description && <p className="gif-detail__description">{gif.description}</p>}
            {gif.tags.length > 0 && (
              <ul className="tag-list" aria-label="Tags">
                {gif.tags.map((tag) => (
                  <li key={tag.id}>
                    <Link to={paths.tag(tag.name)} className="tag-pill">
                      {tag.name}
                    </Link>
                  </li>
                ))}
              </ul>
            )}
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

          <section className="panel gif-detail__info" aria-labelledby="file-info-title">
            <h2 id="file-info-title" className="detail-section__title">
              File Information
            </h2>
            <dl className="file-info">
              <dt>Uploaded by</dt>
              <dd>
                <Link to={paths.user(gif.uploadedBy)}>{gif.uploadedBy}</Link>
              </dd>
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

          <section className="panel gif-detail__share">
            <EmbedCodes gif={gif} />
          </section>

          <LooksLike id={gif.id} />
        </aside>
      </div>

      <footer className="gif-detail__footer">
        <Link to={paths.gifs} className="btn btn--secondary">
          Back to Gallery
        </Link>
        <div className="gif-detail__actions">
          <AddGifToCollection gifId={gif.id} />
          {canEdit && (
            <button type="button" className="btn btn--primary" onClick={() => setEditing(true)}>
              Edit
            </button>
          )}
          {canDelete && (
            <button
              type="button"
              className="btn btn--danger"
              onClick={onDelete}
              disabled={remove.isPending}
            >
              Delete
            </button>
          )}
        </div>
      </footer>

      {opened && <RenditionModal rendition={opened} title={gif.title} onClose={() => setOpened(null)} />}
    </article>
  );
}

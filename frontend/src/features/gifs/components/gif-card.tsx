import { Link } from 'react-router-dom';
import type { GifDto } from '@/api/generated/GifDto';
import { paths } from '@/app/paths';
import { gifMedia } from '../api/query-keys';
import { viewsLabel } from '../gallery';
import { ProgressiveImage } from './progressive-image';

/** A gallery card: the whole card opens the GIF (its title link is stretched over it). */
export function GifCard({ gif }: { gif: GifDto }) {
  return (
    <article className="gif-card" data-testid="gif-card">
      <div className="gif-card__media">
        <ProgressiveImage
          className="gif-card__image"
          placeholder={gifMedia.staticThumbnail(gif.id)}
          src={gifMedia.thumbnail(gif.id)}
          alt={gif.title}
          loading="lazy"
          decoding="async"
        />
      </div>
      <div className="gif-card__body">
        <h2 className="gif-card__title">
          <Link to={paths.gif(gif.id)} className="gif-card__link">
            {gif.title}
          </Link>
        </h2>
        {gif.description && <p className="gif-card__description">{gif.description}</p>}
        {gif.tags.length > 0 && (
          <ul className="tag-list gif-card__tags" aria-label="Tags">
            {gif.tags.map((tag) => (
              <li key={tag.id}>
                <Link to={paths.tag(tag.name)} className="tag-pill">
                  {tag.name}
                </Link>
              </li>
            ))}
          </ul>
        )}
        <p className="gif-card__meta">
          <span>{viewsLabel(gif.viewCount)}</span>
          <span aria-hidden="true">·</span>
          <span>{gif.uploadedBy}</span>
        </p>
      </div>
    </article>
  );
}

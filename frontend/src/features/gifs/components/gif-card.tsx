import type { MouseEvent } from 'react';
import { Link } from 'react-router-dom';
import type { GifDto } from '@/api/generated/GifDto';
import { paths } from '@/app/paths';
import { AddGifToCollection } from '@/components/add-to-collection/add-to-collection-menu';
import { viewsLabel } from '../gallery';
import { AnimatedMedia, useMotionGate } from './animated-media';
import { FavouriteStar } from './favourite-star';
import { TagLinks } from './tag-links';

/** In the gallery's "Select" mode: whether the card is picked, and what a click on it does. */
export type CardSelection = { selected: boolean; onToggle: (event: MouseEvent) => void };

/**
 * A gallery card: the whole card opens the GIF (its title link is stretched over it); in "Select"
 * mode the whole card toggles its selection instead. `priority`: the first card, whose image is
 * likely the largest in view, loads at once and ahead of the others (which load lazily).
 */
export function GifCard({
  gif,
  selection,
  priority = false,
}: {
  gif: GifDto;
  selection?: CardSelection;
  priority?: boolean;
}) {
  // Under reduced motion the card shows its still until hovered, focused or tapped.
  const motion = useMotionGate();
  return (
    <article
      className={selection?.selected ? 'gif-card gif-card--selected' : 'gif-card'}
      data-testid="gif-card"
      {...motion.handlers}
    >
      {selection && (
        <button
          type="button"
          className="gif-card__select"
          aria-pressed={selection.selected}
          aria-label={`Select ${gif.title}`}
          onClick={selection.onToggle}
        >
          <span className="gif-card__check" aria-hidden="true">
            {selection.selected ? '✓' : ''}
          </span>
        </button>
      )}
      <div className="gif-card__media">
        <AnimatedMedia
          gif={gif}
          size="small"
          className="gif-card__image"
          alt={gif.title}
          loading={priority ? 'eager' : 'lazy'}
          decoding="async"
          active={motion.active}
          priority={priority}
        />
      </div>
      <div className="gif-card__star">
        <FavouriteStar gif={gif} />
      </div>
      <div className="gif-card__body">
        {gif.hidden && (
          <span className="hidden-badge" title={`Hidden by a moderator: ${gif.hidden.reason}`}>
            Hidden
          </span>
        )}
        <h2 className="gif-card__title">
          <Link to={paths.gif(gif.id)} className="gif-card__link stretched-link">
            {gif.title}
          </Link>
        </h2>
        {gif.description && <p className="gif-card__description">{gif.description}</p>}
        <TagLinks tags={gif.tags} className="tag-list gif-card__tags" />
        <p className="gif-card__meta">
          <span>{viewsLabel(gif.viewCount)}</span>
          <span aria-hidden="true">·</span>
          <span>{gif.uploadedBy}</span>
        </p>
        {!selection && <AddGifToCollection gifId={gif.id} className="gif-card__collect" />}
      </div>
    </article>
  );
}

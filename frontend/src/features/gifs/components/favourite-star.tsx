import type { GifDto } from '@/api/generated/GifDto';
import { useSetFavourite } from '../api/set-favourite';
import { favouriteLabel } from '../gallery';
import './favourite-star.css';

/** The star of a card or the detail page: a toggle button, optimistic, rolled back on error. */
export function FavouriteStar({ gif }: { gif: GifDto }) {
  const toggle = useSetFavourite();
  const on = gif.favourite;
  return (
    <button
      type="button"
      className={on ? 'favourite-star favourite-star--on' : 'favourite-star'}
      aria-pressed={on}
      aria-label={favouriteLabel(on)}
      title={favouriteLabel(on)}
      onClick={() => toggle.mutate({ id: gif.id, on: !on })}
    >
      <span className="favourite-star__icon" aria-hidden="true">
        {on ? '★' : '☆'}
      </span>
    </button>
  );
}

import { Link } from 'react-router-dom';
import { paths } from '@/app/paths';
import { useLooksLike } from '../api/get-looks-like';
import { gifMedia } from '../api/query-keys';

/**
 * "Looks like": the near duplicates of a GIF (the same animation resized or re-encoded), each a
 * link with its still. Nothing at all when the GIF looks like no other, or the list cannot load.
 */
export function LooksLike({ id }: { id: number }) {
  const similar = useLooksLike(id);
  if (!similar.data || similar.data.length === 0) return null;
  return (
    <section className="panel gif-detail__looks-like" aria-labelledby="looks-like-title">
      <h2 id="looks-like-title" className="detail-section__title">
        Looks like
      </h2>
      <ul className="looks-like">
        {similar.data.map((gif) => (
          <li key={gif.id}>
            <Link to={paths.gif(gif.id)} className="looks-like__link">
              <img src={gifMedia.staticThumbnail(gif.id)} alt="" className="looks-like__still" loading="lazy" />
              <span className="looks-like__title">{gif.title}</span>
            </Link>
          </li>
        ))}
      </ul>
    </section>
  );
}

import { Link } from 'react-router-dom';
import { paths } from '@/app/paths';
import { errorMessage } from '@/lib/api-client';
import { useDuplicateGroups } from '../api/get-looks-like';
import { gifMedia } from '../api/query-keys';
import './gifs.css';

export const MSG_NO_DUPLICATES = 'No near duplicates: every GIF of the library looks like itself only.';

/**
 * /admin/duplicates — groups of near-duplicate GIFs (the same animation resized or re-encoded),
 * for an admin to review: each GIF a card linking to its detail page, where it can be deleted.
 */
export function DuplicatesPage() {
  const groups = useDuplicateGroups();
  return (
    <section className="duplicates" aria-labelledby="duplicates-title">
      <h1 id="duplicates-title" className="page-title">
        Near duplicates
      </h1>
      <p className="duplicates__intro">
        GIFs whose frames look alike, uploaded as different files. Open one to compare, edit or delete it.
      </p>
      {groups.isPending ? (
        <p className="state-line" role="status">
          Loading duplicates...
        </p>
      ) : groups.isError ? (
        <p className="form-message form-message--error" role="alert">
          Error: {errorMessage(groups.error, 'Failed to load duplicates')}
        </p>
      ) : groups.data.groups.length === 0 ? (
        <p className="gallery__empty" role="status">
          {MSG_NO_DUPLICATES}
        </p>
      ) : (
        <ol className="duplicates__groups">
          {groups.data.groups.map((group) => (
            <li key={group.map((gif) => gif.id).join('-')} className="panel duplicates__group" data-testid="duplicate-group">
              <h2 className="detail-section__title">{group.length} GIFs that look alike</h2>
              <ul className="duplicates__gifs">
                {group.map((gif) => (
                  <li key={gif.id}>
                    <Link to={paths.gif(gif.id)} className="duplicates__gif">
                      <img src={gifMedia.staticThumbnail(gif.id)} alt="" loading="lazy" className="duplicates__image" />
                      <span className="duplicates__title">{gif.title}</span>
                      <span className="duplicates__id">#{gif.id}</span>
                    </Link>
                  </li>
                ))}
              </ul>
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}

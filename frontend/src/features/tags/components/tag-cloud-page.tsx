import { useMemo, type CSSProperties } from 'react';
import { Link } from 'react-router-dom';
import { paths } from '@/app/paths';
import { errorMessage } from '@/lib/api-client';
import { useTags } from '@/lib/tags/get-tags';
import { buildCloud, cloudTagLabel } from '../cloud-scale';
import './tag-cloud.css';

/** `/` (signed in) and /tags/cloud: every tag with GIFs, sized by its count (spec §2). */
export function TagCloudPage() {
  const tags = useTags();
  const cloud = useMemo(() => buildCloud(tags.data ?? []), [tags.data]);

  return (
    <section className="tag-cloud-page" aria-labelledby="tag-cloud-title">
      <header className="tag-cloud-page__head">
        <h1 id="tag-cloud-title" className="page-title tag-cloud-page__title">
          Tag Cloud
        </h1>
        <p className="tag-cloud-page__lead">The bigger the tag, the more GIFs carry it.</p>
      </header>

      {tags.isPending ? (
        <p className="state-line tag-cloud-page__state" role="status">
          Loading tags...
        </p>
      ) : tags.isError ? (
        <p className="form-message form-message--error tag-cloud-page__state" role="alert">
          Error: {errorMessage(tags.error, 'Failed to fetch tags')}
        </p>
      ) : cloud.length === 0 ? (
        <p className="state-line tag-cloud-page__state" role="status">
          No tags found.
        </p>
      ) : (
        <ul className="tag-cloud" aria-label="Tags by number of GIFs">
          {cloud.map((tag) => (
            <li key={tag.id} className="tag-cloud__item">
              <Link
                to={paths.tag(tag.name)}
                className={`tag-cloud__tag tag-cloud__tag--l${tag.level}`}
                style={{ '--tag-size': `${tag.fontSize}px` } as CSSProperties}
                title={cloudTagLabel(tag)}
                aria-label={cloudTagLabel(tag)}
                data-count={tag.count}
              >
                {tag.name}
                <span className="tag-cloud__count" aria-hidden="true">
                  {tag.count}
                </span>
              </Link>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

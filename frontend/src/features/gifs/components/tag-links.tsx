import { Link } from 'react-router-dom';
import type { GifDto } from '@/api/generated/GifDto';
import { paths } from '@/app/paths';

/** A GIF's tags as links to their tag pages (nothing when it has none); cards and the detail page. */
export function TagLinks({ tags, className }: { tags: GifDto['tags']; className: string }) {
  if (tags.length === 0) return null;
  return (
    <ul className={className} aria-label="Tags">
      {tags.map((tag) => (
        <li key={tag.id}>
          <Link to={paths.tag(tag.name)} className="tag-pill">
            {tag.name}
          </Link>
        </li>
      ))}
    </ul>
  );
}

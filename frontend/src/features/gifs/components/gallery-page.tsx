import { useQueryClient } from '@tanstack/react-query';
import { Suspense, lazy, useEffect, useId, useMemo } from 'react';
import { useParams, useSearchParams } from 'react-router-dom';
import type { GifDto } from '@/api/generated/GifDto';
import { errorMessage } from '@/lib/api-client';
import { useGifList } from '../api/get-gif-list';
import { GIF_SORTS, type GifFilter, type GifSort } from '../api/query-keys';
import { SORT_LABELS, galleryEmptyMessage, galleryFilter, galleryTitle, parseSort, withSort } from '../gallery';
import { flattenGifs, resetOtherGifLists } from '../gif-list-cache';
import { useGallerySelection, type GallerySelection } from '../hooks/use-gallery-selection';
import { GifCard } from './gif-card';
import { SearchBox } from './search-box';
import './gifs.css';

/** "Select" mode's bar is a chunk of its own: most visits never select. Hovering or focusing
 * "Select" starts loading it, so it is usually there by the click. */
const loadSelectionBar = () => import(/* webpackChunkName: "selection-bar" */ './selection-bar');
const SelectionBar = lazy(() => loadSelectionBar().then((m) => ({ default: m.SelectionBar })));

const defaultErrors = {
  all: 'Failed to fetch gifs',
  search: 'Failed to search gifs',
  tag: 'Failed to fetch gifs by tag',
  user: 'Failed to fetch user gifs',
  favourites: 'Failed to fetch favourites',
} as const;

/** /gifs (with ?q= search), /tags/:tagName, /user/:username and /favourites; `?sort=` orders each. */
export function GalleryPage({ favourites = false }: { favourites?: boolean }) {
  const { tagName, username } = useParams();
  const [searchParams, setSearchParams] = useSearchParams();
  const q = searchParams.get('q');
  const sort = parseSort(searchParams.get('sort'));
  const filter = useMemo(
    () => galleryFilter({ favourites, tagName, username, q }),
    [favourites, tagName, username, q],
  );
  const queryClient = useQueryClient();
  const list = useGifList(filter, sort);

  // A new filter, search or order starts from page 0: other galleries' pages are dropped.
  useEffect(() => {
    resetOtherGifLists(queryClient, filter, sort);
  }, [queryClient, filter, sort]);

  const gifs = flattenGifs(list.data);
  const selection = useGallerySelection(gifs.map((gif) => gif.id));
  const searchable = filter.kind === 'all' || filter.kind === 'search';

  const onSearch = (term: string) => {
    const trimmed = term.trim();
    const next = withSort(new URLSearchParams(), sort);
    if (trimmed) next.set('q', trimmed);
    setSearchParams(next);
  };

  return (
    <section className="gallery" aria-labelledby="gallery-title">
      <div className="gallery__head">
        <h1 id="gallery-title" className="page-title gallery__title">
          {galleryTitle(filter)}
        </h1>
        <div className="gallery__tools">
          {searchable && <SearchBox key={q ?? ''} initial={q?.trim() ?? ''} onSearch={onSearch} />}
          <SortSelect value={sort} onChange={(next) => setSearchParams(withSort(searchParams, next))} />
          {!selection.selecting && gifs.length > 0 && (
            <button
              type="button"
              className="btn btn--secondary"
              onPointerEnter={() => void loadSelectionBar()}
              onFocus={() => void loadSelectionBar()}
              onClick={selection.start}
            >
              Select
            </button>
          )}
        </div>
      </div>

      {selection.selecting && (
        <Suspense fallback={null}>
          <SelectionBar
            selected={selection.ids}
            onSelectAll={selection.selectAll}
            onClear={selection.clear}
            onDone={selection.stop}
            onApplied={selection.clear}
          />
        </Suspense>
      )}

      <GalleryResults list={list} gifs={gifs} filter={filter} selection={selection} />
    </section>
  );
}

type GalleryResultsProps = {
  list: ReturnType<typeof useGifList>;
  gifs: GifDto[];
  filter: GifFilter;
  selection: GallerySelection;
};

/** Loading, the error, the empty message, or the cards with "Load More" while there are more. */
function GalleryResults({ list, gifs, filter, selection }: GalleryResultsProps) {
  if (list.isPending) {
    return (
      <p className="state-line" role="status">
        Loading GIFs...
      </p>
    );
  }
  if (list.isError && gifs.length === 0) {
    return (
      <p className="form-message form-message--error" role="alert">
        Error: {errorMessage(list.error, defaultErrors[filter.kind])}
      </p>
    );
  }
  if (gifs.length === 0) {
    return (
      <p className="gallery__empty" role="status">
        {galleryEmptyMessage(filter)}
      </p>
    );
  }
  return (
    <>
      <div className="gif-grid">
        {gifs.map((gif, index) => (
          <GifCard
            key={gif.id}
            gif={gif}
            priority={index === 0}
            {...(selection.selecting && { selection: selection.card(gif.id, index) })}
          />
        ))}
      </div>
      {list.isFetchNextPageError && (
        <p className="form-message form-message--error gallery__more-error" role="alert">
          Error: {errorMessage(list.error, defaultErrors[filter.kind])}
        </p>
      )}
      {list.hasNextPage && (
        <div className="gallery__more">
          <button
            type="button"
            className="btn btn--secondary btn--large"
            onClick={() => void list.fetchNextPage()}
            disabled={list.isFetchingNextPage}
          >
            {list.isFetchingNextPage ? 'Loading...' : 'Load More'}
          </button>
        </div>
      )}
    </>
  );
}

function SortSelect({ value, onChange }: { value: GifSort; onChange: (sort: GifSort) => void }) {
  const id = useId();
  return (
    <div className="sort-select">
      <label className="sort-select__label" htmlFor={id}>
        Sort
      </label>
      <select
        id={id}
        className="sort-select__input"
        value={value}
        onChange={(event) => onChange(parseSort(event.target.value))}
      >
        {GIF_SORTS.map((sort) => (
          <option key={sort} value={sort}>
            {SORT_LABELS[sort]}
          </option>
        ))}
      </select>
    </div>
  );
}

import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useMemo, useState, type FormEvent } from 'react';
import { useParams, useSearchParams } from 'react-router-dom';
import { errorMessage } from '@/lib/api-client';
import { useGifList } from '../api/get-gif-list';
import { galleryEmptyMessage, galleryFilter, galleryTitle } from '../gallery';
import { flattenGifs, resetOtherGifLists } from '../gif-list-cache';
import { GifCard } from './gif-card';
import './gifs.css';

const defaultErrors = {
  all: 'Failed to fetch gifs',
  search: 'Failed to search gifs',
  tag: 'Failed to fetch gifs by tag',
  user: 'Failed to fetch user gifs',
} as const;

/** /gifs (with ?q= search), /tags/:tagName and /user/:username. */
export function GalleryPage() {
  const { tagName, username } = useParams();
  const [searchParams, setSearchParams] = useSearchParams();
  const q = searchParams.get('q');
  const filter = useMemo(() => galleryFilter({ tagName, username, q }), [tagName, username, q]);
  const queryClient = useQueryClient();
  const list = useGifList(filter);

  // A new filter or search starts from page 0: other galleries' pages are dropped.
  useEffect(() => {
    resetOtherGifLists(queryClient, filter);
  }, [queryClient, filter]);

  const gifs = flattenGifs(list.data);
  const unfiltered = tagName === undefined && username === undefined;

  const onSearch = (term: string) => {
    const trimmed = term.trim();
    setSearchParams(trimmed ? { q: trimmed } : {});
  };

  return (
    <section className="gallery" aria-labelledby="gallery-title">
      <div className="gallery__head">
        <h1 id="gallery-title" className="page-title gallery__title">
          {galleryTitle(filter)}
        </h1>
        {unfiltered && <SearchBox key={q ?? ''} initial={q?.trim() ?? ''} onSearch={onSearch} />}
      </div>

      {list.isPending ? (
        <p className="state-line" role="status">
          Loading GIFs...
        </p>
      ) : list.isError && gifs.length === 0 ? (
        <p className="form-message form-message--error" role="alert">
          Error: {errorMessage(list.error, defaultErrors[filter.kind])}
        </p>
      ) : gifs.length === 0 ? (
        <p className="gallery__empty" role="status">
          {galleryEmptyMessage(filter)}
        </p>
      ) : (
        <>
          <div className="gif-grid">
            {gifs.map((gif) => (
              <GifCard key={gif.id} gif={gif} />
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
      )}
    </section>
  );
}

function SearchBox({ initial, onSearch }: { initial: string; onSearch: (term: string) => void }) {
  const [term, setTerm] = useState(initial);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    onSearch(term);
  };
  return (
    <form className="search-box" role="search" onSubmit={submit}>
      <div className="search-box__field">
        <span className="search-box__icon" aria-hidden="true">
          ⌕
        </span>
        <input
          type="search"
          className="search-box__input"
          aria-label="Search GIFs"
          placeholder="Search GIFs by title, description, or tags..."
          value={term}
          onChange={(event) => setTerm(event.target.value)}
        />
        {term && (
          <button
            type="button"
            className="search-box__clear"
            aria-label="Clear search"
            onClick={() => {
              setTerm('');
              onSearch('');
            }}
          >
            ×
          </button>
        )}
      </div>
      <button type="submit" className="btn btn--primary">
        Search
      </button>
    </form>
  );
}

/**
 * A page of a third-party web app built on GIPHY's SDK, unchanged: `@giphy/react-components`' Grid
 * fed by `@giphy/js-fetch-api`, with only the server URL pointed at gifshelf. Bundled by esbuild in
 * `giphy-grid.spec.ts` (never part of the product's bundle). The query string says the server,
 * the key and the search; the page counts what the Grid fetched in `window.gridState`.
 */
import { GiphyFetch, setServerUrl } from '@giphy/js-fetch-api';
import { Grid } from '@giphy/react-components';
import { createRoot } from 'react-dom/client';

type GridState = { fetched: number; errors: string[] };
declare global {
  interface Window {
    gridState: GridState;
  }
}

const params = new URLSearchParams(window.location.search);
setServerUrl(params.get('server') ?? '');
const gf = new GiphyFetch(params.get('key') ?? '');
const term = params.get('q') ?? '';
window.gridState = { fetched: 0, errors: [] };

const fetchGifs = (offset: number) => gf.search(term, { offset, limit: 4 });

const root = document.getElementById('root');
if (root) {
  createRoot(root).render(
    <Grid
      width={600}
      columns={3}
      gutter={6}
      fetchGifs={fetchGifs}
      noLink
      hideAttribution
      noResultsMessage="No GIFs"
      onGifsFetched={(gifs) => {
        window.gridState.fetched = gifs.length;
      }}
      onGifsFetchError={(e) => {
        window.gridState.errors.push(String(e));
      }}
    />,
  );
}

/** The columns and cells of the detail modal, per kind (spec §2 "Detail modal"). */
import type { DetailRows } from './api/detail-rows';
import type { DetailKind, DetailTarget } from './api/query-keys';
import { formatDecimal } from './stats-format';

export const DETAIL_COLUMNS: Readonly<Record<DetailKind, readonly string[]>> = {
  size: ['GIF ID', 'Title', 'Size (MB)'],
  tag: ['GIF ID', 'Title', 'Views'],
  activity: ['User ID', 'Username', 'GIF Count'],
  'content-type': ['GIF ID', 'Title', 'Content Type', 'Size (MB)'],
};

export type DetailCell = {
  text: string;
  /** Set on a GIF title: the cell links to that GIF. */
  gifId?: number;
};

export type DetailTableRow = { key: number; cells: DetailCell[] };

export const detailTitle = (target: DetailTarget) => `Detailed Data: ${target.value}`;

export function detailTableRows(data: DetailRows): DetailTableRow[] {
  switch (data.kind) {
    case 'activity':
      return data.rows.map((user) => ({
        key: user.id,
        cells: [{ text: String(user.id) }, { text: user.username }, { text: String(user.gifCount) }],
      }));
    case 'size':
      return data.rows.map((gif) => ({
        key: gif.id,
        cells: [{ text: String(gif.id) }, { text: gif.title, gifId: gif.id }, { text: formatDecimal(gif.sizeMB) }],
      }));
    case 'tag':
      return data.rows.map((gif) => ({
        key: gif.id,
        cells: [{ text: String(gif.id) }, { text: gif.title, gifId: gif.id }, { text: String(gif.views) }],
      }));
    case 'content-type':
      return data.rows.map((gif) => ({
        key: gif.id,
        cells: [
          { text: String(gif.id) },
          { text: gif.title, gifId: gif.id },
          { text: gif.contentType },
          { text: formatDecimal(gif.sizeMB) },
        ],
      }));
  }
}

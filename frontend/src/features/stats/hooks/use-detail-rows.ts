import { useQuery } from '@tanstack/react-query';
import { gifsByContentTypeQueryOptions } from '../api/get-gifs-by-content-type';
import { gifsBySizeQueryOptions } from '../api/get-gifs-by-size';
import { gifsByTagQueryOptions } from '../api/get-gifs-by-tag';
import { usersByActivityQueryOptions } from '../api/get-users-by-activity';
import type { DetailTarget } from '../api/query-keys';

/** The query behind a detail modal: one drill-down endpoint per kind. */
export function detailRowsQueryOptions({ kind, value }: DetailTarget) {
  switch (kind) {
    case 'size':
      return gifsBySizeQueryOptions(value);
    case 'tag':
      return gifsByTagQueryOptions(value);
    case 'activity':
      return usersByActivityQueryOptions(value);
    case 'content-type':
      return gifsByContentTypeQueryOptions(value);
  }
}

export const useDetailRows = (target: DetailTarget) => useQuery(detailRowsQueryOptions(target));

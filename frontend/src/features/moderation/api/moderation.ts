import { keepPreviousData, queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { CreateReportRequest } from '@/api/generated/CreateReportRequest';
import type { GifDto } from '@/api/generated/GifDto';
import type { PagedGifs } from '@/api/generated/PagedGifs';
import type { PagedReports } from '@/api/generated/PagedReports';
import type { ReportDto } from '@/api/generated/ReportDto';
import type { ResolveReportRequest } from '@/api/generated/ResolveReportRequest';
import { apiRequest } from '@/lib/api-client';
import { gifKeys } from '@/features/gifs/api/query-keys';
import { applyGifUpdated } from '@/features/gifs/gif-list-cache';

export const MSG_LOAD_REPORTS_FAILED = 'Failed to load the reports';
export const MSG_LOAD_HIDDEN_FAILED = 'Failed to load the hidden GIFs';
export const MSG_REPORT_FAILED = 'Failed to send the report';
export const MSG_MODERATE_FAILED = 'Failed to change the GIF';

/** Reports, or hidden GIFs, on one page of the Moderation screen. */
export const MODERATION_PAGE_SIZE = 20;

export const moderationKeys = {
  all: ['moderation'] as const,
  reports: (page: number) => [...moderationKeys.all, 'reports', 'open', page] as const,
  hidden: (page: number) => [...moderationKeys.all, 'hidden', page] as const,
};

/** POST /api/gifs/{id}/reports {reason, note} → the report (201; 200 when yours is still open). */
export const reportGif = ({ id, body }: { id: number; body: CreateReportRequest }) =>
  apiRequest<ReportDto>(`/api/gifs/${id}/reports`, { method: 'POST', body, defaultError: MSG_REPORT_FAILED });

export const useReportGif = () => useMutation({ mutationFn: reportGif });

/** GET /api/admin/reports?status=open → the open reports, oldest first (admins). */
export const getOpenReports = (page: number, signal?: AbortSignal) =>
  apiRequest<PagedReports>(`/api/admin/reports?status=open&page=${page}&size=${MODERATION_PAGE_SIZE}`, {
    defaultError: MSG_LOAD_REPORTS_FAILED,
    ...(signal ? { signal } : {}),
  });

export const openReportsQueryOptions = (page: number) =>
  queryOptions({
    queryKey: moderationKeys.reports(page),
    queryFn: ({ signal }) => getOpenReports(page, signal),
    placeholderData: keepPreviousData,
  });

export const useOpenReports = (page: number) => useQuery(openReportsQueryOptions(page));

/** GET /api/admin/gifs/hidden → the hidden GIFs, most recently hidden first (admins). */
export const getHiddenGifs = (page: number, signal?: AbortSignal) =>
  apiRequest<PagedGifs>(`/api/admin/gifs/hidden?page=${page}&size=${MODERATION_PAGE_SIZE}`, {
    defaultError: MSG_LOAD_HIDDEN_FAILED,
    ...(signal ? { signal } : {}),
  });

export const hiddenGifsQueryOptions = (page: number) =>
  queryOptions({
    queryKey: moderationKeys.hidden(page),
    queryFn: ({ signal }) => getHiddenGifs(page, signal),
    placeholderData: keepPreviousData,
  });

export const useHiddenGifs = (page: number) => useQuery(hiddenGifsQueryOptions(page));

/** PUT /api/admin/reports/{id} {action} → the report as closed (admins). */
export const resolveReport = ({ id, action }: { id: number; action: ResolveReportRequest['action'] }) =>
  apiRequest<ReportDto>(`/api/admin/reports/${id}`, {
    method: 'PUT',
    body: { action },
    defaultError: MSG_MODERATE_FAILED,
  });

/** PUT /api/admin/gifs/{id}/visibility {hidden} → the GIF as it is now (admins). */
export const setGifHidden = ({ id, hidden }: { id: number; hidden: boolean }) =>
  apiRequest<GifDto>(`/api/admin/gifs/${id}/visibility`, {
    method: 'PUT',
    body: { hidden },
    defaultError: MSG_MODERATE_FAILED,
  });

/** After a moderation change the queue, the hidden list and every cached GIF are read again. */
function useRefreshAfterModeration() {
  const queryClient = useQueryClient();
  return () => {
    void queryClient.invalidateQueries({ queryKey: moderationKeys.all });
    void queryClient.invalidateQueries({ queryKey: gifKeys.all });
  };
}

export function useResolveReport() {
  const refresh = useRefreshAfterModeration();
  return useMutation({ mutationFn: resolveReport, onSuccess: refresh });
}

export function useSetGifHidden() {
  const queryClient = useQueryClient();
  const refresh = useRefreshAfterModeration();
  return useMutation({
    mutationFn: setGifHidden,
    onSuccess: (gif) => {
      applyGifUpdated(queryClient, gif);
      refresh();
    },
  });
}

import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { PagedAuditEvents } from '@/api/generated/PagedAuditEvents';
import { apiRequest } from '@/lib/api-client';

/** Events on one page of the audit log. */
export const AUDIT_PAGE_SIZE = 25;

export const auditKeys = {
  all: ['audit'] as const,
  page: (page: number) => [...auditKeys.all, 'page', page] as const,
};

/** GET /api/admin/audit?page=&size= → admin and security events, newest first (admins). */
export const getAuditEvents = (page: number, signal?: AbortSignal) =>
  apiRequest<PagedAuditEvents>(`/api/admin/audit?page=${page}&size=${AUDIT_PAGE_SIZE}`, {
    defaultError: 'Failed to load the audit log',
    ...(signal ? { signal } : {}),
  });

export const auditEventsQueryOptions = (page: number) =>
  queryOptions({
    queryKey: auditKeys.page(page),
    queryFn: ({ signal }) => getAuditEvents(page, signal),
    // Paging keeps the page shown until the next one has arrived.
    placeholderData: keepPreviousData,
  });

export const useAuditEvents = (page: number) => useQuery(auditEventsQueryOptions(page));

import { keepPreviousData, queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { MemberDto } from '@/api/generated/MemberDto';
import type { PagedMembers } from '@/api/generated/PagedMembers';
import type { UpdateMemberRequest } from '@/api/generated/UpdateMemberRequest';
import { apiRequest } from '@/lib/api-client';

export const MSG_LOAD_MEMBERS_FAILED = 'Failed to load members';
export const MSG_UPDATE_MEMBER_FAILED = 'Failed to change the member';

/** Members on one page of the list. */
export const MEMBERS_PAGE_SIZE = 20;

export const memberKeys = {
  all: ['members'] as const,
  list: (q: string, page: number) => [...memberKeys.all, 'list', q, page] as const,
};

/** GET /api/admin/users?q=&page=&size= → accounts whose name or email contains `q`. */
export const getMembers = (q: string, page: number, signal?: AbortSignal) => {
  const query = new URLSearchParams({ page: String(page), size: String(MEMBERS_PAGE_SIZE) });
  if (q) query.set('q', q);
  return apiRequest<PagedMembers>(`/api/admin/users?${query.toString()}`, {
    defaultError: MSG_LOAD_MEMBERS_FAILED,
    ...(signal ? { signal } : {}),
  });
};

export const membersQueryOptions = (q: string, page: number) =>
  queryOptions({
    queryKey: memberKeys.list(q, page),
    queryFn: ({ signal }) => getMembers(q, page, signal),
    placeholderData: keepPreviousData,
  });

export const useMembers = (q: string, page: number) => useQuery(membersQueryOptions(q, page));

/** PUT /api/admin/users/{id} {role?, status?} → the member as changed. */
export const updateMember = ({ id, change }: { id: number; change: UpdateMemberRequest }) =>
  apiRequest<MemberDto>(`/api/admin/users/${id}`, { method: 'PUT', body: change, defaultError: MSG_UPDATE_MEMBER_FAILED });

export function useUpdateMember() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateMember,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: memberKeys.all }),
  });
}

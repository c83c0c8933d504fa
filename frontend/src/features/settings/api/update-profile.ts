import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { ProfileDto } from '@/api/generated/ProfileDto';
import type { UpdateProfileRequest } from '@/api/generated/UpdateProfileRequest';
import { apiRequest } from '@/lib/api-client';
import { profileQueryOptions } from './get-profile';

/** PUT /api/settings/profile → the updated profile. */
export const updateProfile = (body: UpdateProfileRequest) =>
  apiRequest<ProfileDto>('/api/settings/profile', {
    method: 'PUT',
    body,
    defaultError: 'Failed to update profile',
  });

export function useUpdateProfile() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateProfile,
    // The answer is the new profile: store it rather than refetch (a renamed user's token is dead).
    onSuccess: (profile) => queryClient.setQueryData(profileQueryOptions().queryKey, profile),
  });
}

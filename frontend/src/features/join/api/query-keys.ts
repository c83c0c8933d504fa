export const joinKeys = {
  all: ['join'] as const,
  policy: () => [...joinKeys.all, 'policy'] as const,
  invites: () => [...joinKeys.all, 'invites'] as const,
};

export const settingsKeys = {
  all: ['settings'] as const,
  profile: () => [...settingsKeys.all, 'profile'] as const,
  identities: () => [...settingsKeys.all, 'identities'] as const,
  apiKeys: () => [...settingsKeys.all, 'api-keys'] as const,
  integrations: () => [...settingsKeys.all, 'integrations'] as const,
};

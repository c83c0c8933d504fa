/**
 * The audit log's action names (`AuditAction` on the server) in words. A name this version does not
 * know (a newer server's) is shown as it is.
 */
const ACTIONS: Record<string, string> = {
  'user.role_changed': 'Changed a role',
  'user.disabled': 'Disabled a member',
  'user.enabled': 'Enabled a member',
  'user.deleted': 'Deleted a member',
  'user.password_changed': 'Changed their password',
  'user.password_reset_link': 'Made a password reset link',
  'user.password_reset': 'Reset a password',
  'user.quota_changed': 'Changed a quota',
  'invitation.made': 'Made an invitation',
  'invitation.revoked': 'Revoked an invitation',
  'registration.changed': 'Changed who may join',
  'integration.added': 'Added an integration',
  'integration.removed': 'Removed an integration',
  'integration.secret_removed': 'Removed an integration secret kept in clear',
  'api_key.made': 'Made an API key',
  'api_key.revoked': 'Revoked an API key',
  'gif.hidden': 'Hid a GIF',
  'gif.restored': 'Restored a hidden GIF',
  'report.dismissed': 'Dismissed a report',
  'report.hidden': 'Hid a reported GIF',
  'integration.max_rating_changed': "Changed an integration's maximum rating",
};

export function actionLabel(action: string): string {
  return ACTIONS[action] ?? action;
}

import { InvitationsPanel } from '@/features/join/components/invitations-panel';
import { SettingsPage } from '@/features/settings/components/settings-page';

/** /settings, with the members' Invitations section from the join feature. */
export function SettingsRoute() {
  return <SettingsPage invitations={<InvitationsPanel canInviteAdmins={false} />} />;
}

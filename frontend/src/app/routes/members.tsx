import { InvitationsPanel } from '@/features/join/components/invitations-panel';
import { RegistrationPanel } from '@/features/join/components/registration-panel';
import './members.css';

/** /admin/members: who may join (Registration) and the invitation links (Invitations). */
export function MembersPage() {
  return (
    <div className="members-page">
      <h1 className="members-page__title">Members</h1>
      <div className="members-page__sections">
        <RegistrationPanel />
        <InvitationsPanel canInviteAdmins />
      </div>
    </div>
  );
}


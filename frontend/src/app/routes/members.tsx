import { InvitationsPanel } from '@/features/join/components/invitations-panel';
import { RegistrationPanel } from '@/features/join/components/registration-panel';
import { MembersTable } from '@/features/members/components/members-table';
import { QuotasPanel } from '@/features/members/components/quotas-panel';
import './members.css';

/** /admin/members: the accounts (Accounts), who may join (Registration) and the invitation links (Invitations). */
export function MembersPage() {
  return (
    <div className="members-page">
      <h1 className="members-page__title">Members</h1>
      <div className="members-page__sections">
        <MembersTable />
        <QuotasPanel />
        <RegistrationPanel />
        <InvitationsPanel canInviteAdmins />
      </div>
    </div>
  );
}


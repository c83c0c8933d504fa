import { useParams } from 'react-router-dom';
import { ResetPasswordPage } from './lazy-pages';

/** /reset/:token: the password reset screen of an administrator's link. */
export function ResetRoute() {
  const { token = '' } = useParams();
  return <ResetPasswordPage token={token} />;
}

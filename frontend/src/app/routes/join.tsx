import { useParams } from 'react-router-dom';
import { RegisterPage } from './lazy-pages';

/** /join/:token: the register screen with the invitation of the link. */
export function JoinRoute() {
  const { token = '' } = useParams();
  return <RegisterPage invite={token} />;
}

import { Link } from 'react-router-dom';
import { useUsername } from '@/lib/session';
import { paths } from '../paths';
import './home.css';

/** The signed-in home page (the slot the tag cloud will fill). */
export function HomeSignedIn() {
  const username = useUsername();
  return (
    <section className="home-signed-in" aria-labelledby="home-title">
      <h1 id="home-title" className="page-title">
        Welcome back, {username}
      </h1>
      <div className="home-signed-in__links">
        <Link to={paths.gifs} className="btn btn--primary">
          Gifs
        </Link>
        <Link to={paths.upload} className="btn btn--secondary">
          Upload
        </Link>
        <Link to={paths.tags} className="btn btn--secondary">
          Tags
        </Link>
      </div>
    </section>
  );
}

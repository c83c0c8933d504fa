import { Link } from 'react-router-dom';
import { paths } from '../paths';
import './home.css';

const features = [
  { title: 'Upload', text: 'Drop in GIFs, PNGs, JPEGs or WebPs; thumbnails are made for you.' },
  { title: 'Tag & search', text: 'Tag every GIF and find the right reaction in seconds.' },
  { title: 'Share', text: 'Every GIF gets a public link that unfurls in chat apps.' },
];

/** The signed-out home page: what gifshelf is. Makes no API call. */
export function Welcome() {
  return (
    <div className="welcome">
      <section className="hero" aria-labelledby="welcome-title">
        <p className="hero__eyebrow">Self-hosted GIF library</p>
        <h1 id="welcome-title" className="hero__title">
          Your team&apos;s GIFs, <span className="hero__accent">on one shelf</span>.
        </h1>
        <p className="hero__lead">
          gifshelf keeps your animated images in one place: upload them, tag them, search them and
          share them with a link — on your own server.
        </p>
        <div className="hero__actions">
          <Link to={paths.login} className="btn btn--primary btn--large">
            Login
          </Link>
          <Link to={paths.register} className="btn btn--secondary btn--large">
            Register
          </Link>
        </div>
      </section>
      <ul className="feature-list">
        {features.map((feature) => (
          <li key={feature.title} className="feature-card">
            <h2 className="feature-card__title">{feature.title}</h2>
            <p className="feature-card__text">{feature.text}</p>
          </li>
        ))}
      </ul>
    </div>
  );
}

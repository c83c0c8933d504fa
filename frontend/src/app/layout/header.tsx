import { useEffect, useState } from 'react';
import { Link, NavLink, useLocation, useNavigate } from 'react-router-dom';
import { ThemeSwitcher } from '@/components/theme-switcher/theme-switcher';
import { RandomButton } from '@/features/gifs/components/random-button';
import { logout, useIsAdmin, useIsAuthenticated, useUsername } from '@/lib/session';
import { paths } from '../paths';
import './header.css';

const navClass = ({ isActive }: { isActive: boolean }) =>
  isActive ? 'site-nav__link site-nav__link--active' : 'site-nav__link';

export function Header() {
  const isAuthenticated = useIsAuthenticated();
  const username = useUsername();
  const isAdmin = useIsAdmin();
  const navigate = useNavigate();
  const location = useLocation();
  const [menuOpen, setMenuOpen] = useState(false);

  useEffect(() => setMenuOpen(false), [location.pathname]);

  // Leave the page first, so that a signed-in route's guard does not send the user to /login.
  const onLogout = () => {
    void Promise.resolve(navigate(paths.home, { flushSync: true })).then(logout);
  };

  return (
    <header className="site-header">
      <div className="site-header__inner">
        <Link to={paths.home} className="site-logo" aria-label="gifshelf home">
          <span className="site-logo__mark" aria-hidden="true">
            GIF
          </span>
          <span className="site-logo__name">gifshelf</span>
        </Link>

        {isAuthenticated && username ? (
          <>
            <button
              type="button"
              className="menu-toggle"
              aria-label={menuOpen ? 'Close menu' : 'Open menu'}
              aria-expanded={menuOpen}
              aria-controls="site-menu"
              onClick={() => setMenuOpen((open) => !open)}
            >
              <span className="menu-toggle__bar" aria-hidden="true" />
              <span className="menu-toggle__bar" aria-hidden="true" />
              <span className="menu-toggle__bar" aria-hidden="true" />
            </button>
            <div id="site-menu" className={menuOpen ? 'site-menu site-menu--open' : 'site-menu'}>
              <MainNav username={username} isAdmin={isAdmin} />
              <div className="site-menu__end">
                <ThemeSwitcher />
                <div className="site-user">
                  <span className="site-greeting">Hello, {username}</span>
                  <button type="button" className="btn btn--ghost btn--small" onClick={onLogout}>
                    Logout
                  </button>
                </div>
              </div>
            </div>
          </>
        ) : (
          <div className="site-header__end">
            <ThemeSwitcher />
            <Link to={paths.login} className="btn btn--primary btn--small">
              Login
            </Link>
          </div>
        )}
      </div>
    </header>
  );
}

/** The signed-in member's places; Statistics for admins only. */
function MainNav({ username, isAdmin }: { username: string; isAdmin: boolean }) {
  return (
    <nav className="site-nav" aria-label="Main">
      <NavLink to={paths.home} end className={navClass}>
        Cloud
      </NavLink>
      <NavLink to={paths.gifs} className={navClass}>
        Gifs
      </NavLink>
      <NavLink to={paths.tags} className={navClass}>
        Tags
      </NavLink>
      <NavLink to={paths.user(username)} className={navClass}>
        Mine
      </NavLink>
      <NavLink to={paths.collections} className={navClass}>
        Collections
      </NavLink>
      <NavLink to={paths.favourites} className={navClass}>
        Favourites
      </NavLink>
      <RandomButton className="site-nav__link site-nav__button" />
      <NavLink to={paths.upload} className={navClass}>
        Upload
      </NavLink>
      <NavLink to={paths.make} className={navClass}>
        Make
      </NavLink>
      <NavLink to={paths.settings} className={navClass}>
        Settings
      </NavLink>
      {isAdmin && (
        <NavLink to={paths.statistics} className={navClass}>
          Statistics
        </NavLink>
      )}
    </nav>
  );
}

import { useEffect, useState } from "react";
import { NavLink, Outlet, useLocation } from "react-router";
import { StatusBadge } from "../components/status-badge.js";
import { useSession } from "../session/session-context.js";
import { SessionExpiredDialog } from "../session/session-expired-dialog.js";
import { useSignOut } from "../session/use-sign-out.js";
import { navigationGroups } from "./pages.js";

/** The signed-in frame: side navigation (only what the role may open), top bar, and the screen. */
export function AppLayout() {
  const { session, can } = useSession();
  const signOut = useSignOut();
  const location = useLocation();
  const [menuOpen, setMenuOpen] = useState(false);
  useEffect(() => setMenuOpen(false), [location.pathname]);
  const otherOrganizations = session.organizations.filter((organization) => organization.id !== session.organization.id);
  return (
    <div className={`shell${menuOpen ? " menu-open" : ""}`}>
      <a className="skip-link" href="#content">
        Skip to content
      </a>
      <aside className="sidebar" id="navigation">
        <NavLink to="/" className="brand">
          <img src="/favicon.svg" alt="" /> AI Gateway
        </NavLink>
        <nav className="nav" aria-label="Main">
          {navigationGroups(can).map((group) => (
            <div className="nav-group" key={group.label}>
              <h2>{group.label}</h2>
              <ul>
                {group.pages.map((page) => (
                  <li key={page.path}>
                    <NavLink to={page.path} end={page.path === "/"}>
                      {page.label}
                    </NavLink>
                  </li>
                ))}
              </ul>
            </div>
          ))}
        </nav>
      </aside>
      <div className="main">
        <header className="topbar">
          <div className="actions">
            <button type="button" className="button small menu-button" aria-expanded={menuOpen} aria-controls="navigation" onClick={() => setMenuOpen((open) => !open)}>
              Menu
            </button>
            <span className="topbar-organization">{session.organization.name}</span>
            {otherOrganizations.length > 0 ? (
              <label className="small">
                <span className="visually-hidden">Switch organization</span>
                <select
                  value=""
                  onChange={(event) => {
                    if (event.target.value) void signOut(`/login?organization_id=${encodeURIComponent(event.target.value)}&email=${encodeURIComponent(session.person.email)}`);
                  }}
                >
                  <option value="">Switch organization…</option>
                  {otherOrganizations.map((organization) => (
                    <option key={organization.id} value={organization.id}>
                      {organization.name}
                    </option>
                  ))}
                </select>
              </label>
            ) : null}
          </div>
          <div className="topbar-user">
            <span data-testid="signed-in-user">
              {session.person.name || session.person.email} <StatusBadge tone="info">{session.user.role_label}</StatusBadge>
            </span>
            <button type="button" className="button small" onClick={() => void signOut()}>
              Sign out
            </button>
          </div>
        </header>
        <main className="content" id="content" tabIndex={-1}>
          <Outlet />
        </main>
        <SessionExpiredDialog />
      </div>
    </div>
  );
}

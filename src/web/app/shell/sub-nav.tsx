import { NavLink } from 'react-router';

export interface SubNavLink {
  to: string;
  label: string;
  /** Active only on exactly this path, not below it. */
  end?: boolean;
}

/** The sections of one area (the team's, the admin console's) as a row of tabs; the current one carries aria-current. */
export function SubNav({ label, links }: { label: string; links: SubNavLink[] }) {
  return (
    <nav aria-label={label} className="mb-8 border-b border-slate-200">
      <ul className="-mb-px flex flex-wrap gap-x-6">
        {links.map((link) => (
          <li key={link.to}>
            <NavLink
              to={link.to}
              end={link.end}
              className={({ isActive }) =>
                `inline-block border-b-2 py-3 text-sm font-semibold ${isActive ? 'border-navy-700 text-navy-900' : 'border-transparent text-slate-600 hover:border-slate-300 hover:text-slate-900'}`
              }
            >
              {link.label}
            </NavLink>
          </li>
        ))}
      </ul>
    </nav>
  );
}

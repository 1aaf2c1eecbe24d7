import type { CSSProperties } from 'react';
import { Link, useLocation } from 'react-router';
import type { Me } from '../../../shared/schemas/me';
import { NotificationBell } from '../../features/notifications/components/notification-bell';
import { usePublicConfig } from '../../lib/public-config';
import { LogoMark } from '../../ui/logo';
import { appRoutes } from '../app-routes';
import { headerLinks } from './navigation';
import { UserMenu } from './user-menu';

const navLinkClasses = (active: boolean) =>
  `rounded-md px-2 py-2 text-sm font-semibold sm:px-3 ${active ? 'bg-navy-50 text-navy-900' : 'text-slate-600 hover:bg-slate-100 hover:text-slate-900'}`;

/**
 * The app's header: whose app it is (the team's logo and name, or the
 * platform's), the links of the features this person may open (app-routes),
 * the bell of their notifications, and the person's menu. The team's accent
 * colour is only ever a decorative stripe: any colour may be chosen, so it
 * never colours text. On a phone the navigation takes a row of its own.
 */
export function AppHeader({ me, width, onSignOut }: { me: Me; width: string; onSignOut: () => void }) {
  const { pathname } = useLocation();
  const { team } = me;
  return (
    <header className="border-b border-slate-200 bg-white" style={team ? ({ '--team-accent': team.accentColor } as CSSProperties) : undefined}>
      {team ? <div aria-hidden="true" data-testid="team-accent" className="h-1 bg-(--team-accent)" /> : null}
      <div className={`mx-auto flex ${width} flex-wrap items-center gap-x-4 px-4 sm:h-16 sm:flex-nowrap sm:gap-x-6 sm:px-6`}>
        <div className="flex h-14 min-w-0 items-center gap-2 sm:h-auto">{team ? <TeamBrand team={team} /> : <PlatformBrand />}</div>
        <nav aria-label="App" className="order-last -mx-2 flex w-[calc(100%+1rem)] flex-wrap items-center gap-1 pb-2 sm:order-none sm:mx-0 sm:w-auto sm:pb-0">
          {headerLinks(appRoutes, me, pathname).map(({ label, to, active }) => (
            <Link key={to} to={to} aria-current={active ? 'page' : undefined} className={navLinkClasses(active)}>
              {label}
            </Link>
          ))}
        </nav>
        <div className="ml-auto flex items-center gap-2">
          {/* Someone who must enrol an authenticator first has no inbox to open yet. */}
          {me.mustEnrolMfa ? null : <NotificationBell />}
          <UserMenu me={me} onSignOut={onSignOut} />
        </div>
      </div>
    </header>
  );
}

function PlatformBrand() {
  const { brandName } = usePublicConfig();
  return (
    <>
      <LogoMark />
      {/* On a phone the mark alone leaves room for the person's menu. */}
      <span className="sr-only text-lg font-bold tracking-tight text-navy-900 sm:not-sr-only">{brandName}</span>
    </>
  );
}

function TeamBrand({ team }: { team: NonNullable<Me['team']> }) {
  if (!team.logoUrl) return <span className="truncate text-lg font-bold tracking-tight text-slate-900">{team.name}</span>;
  return (
    <>
      <img src={team.logoUrl} alt={team.name} className="h-8 w-auto max-w-32 object-contain" />
      {/* The logo already says the name to assistive technology. */}
      <span aria-hidden="true" className="hidden truncate text-lg font-bold tracking-tight text-slate-900 sm:block">
        {team.name}
      </span>
    </>
  );
}

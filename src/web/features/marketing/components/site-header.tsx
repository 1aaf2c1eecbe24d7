import type { MouseEvent } from 'react';
import { Link } from 'react-router';
import { paths } from '../../../lib/paths';
import { ButtonLink } from '../../../ui/button';
import { Logo } from '../../../ui/logo';
import { CloseIcon, MenuIcon } from '../../../ui/icons';

export const sectionLinks = [
  { id: 'features', label: 'Features' },
  { id: 'how-it-works', label: 'How It Works' },
  { id: 'pricing', label: 'Pricing' },
] as const;

const navLink = 'rounded-md text-sm font-medium text-slate-700 transition-colors hover:text-navy-900';
const menuLink = 'block rounded-lg px-3 py-3 text-base font-medium text-slate-800 hover:bg-slate-50';

/** Hides the small-screen menu (an in-page anchor was chosen): with JavaScript only; without it the anchor still navigates. */
const closeMenu = (event: MouseEvent<HTMLElement>) => event.currentTarget.closest<HTMLElement>('[popover]')?.hidePopover();

/**
 * The small-screen menu is a native popover: its toggle works from the first
 * paint, before (and without) JavaScript, and the browser gives it what a
 * disclosure needs: the toggle's expanded state for assistive technology,
 * Escape and a tap elsewhere to close it, focus back to the toggle, and the
 * menu next in the tab order. Hydration leaves its open state alone.
 */
export function SiteHeader() {
  return (
    <header className="sticky top-0 z-40 border-b border-slate-200/80 bg-white/90 backdrop-blur">
      <div className="relative mx-auto flex h-16 max-w-6xl items-center justify-between gap-6 px-4 sm:px-6">
        <Logo />
        <nav aria-label="Main" className="hidden md:block">
          <ul className="flex items-center gap-8">
            {sectionLinks.map((link) => (
              <li key={link.id}>
                <a href={`#${link.id}`} className={navLink}>
                  {link.label}
                </a>
              </li>
            ))}
          </ul>
        </nav>
        <div className="hidden items-center gap-2 md:flex">
          <ButtonLink to={paths.signIn} variant="ghost">
            Sign In
          </ButtonLink>
          <ButtonLink to={paths.joinWaitlist} variant="accent">
            Join Waitlist
          </ButtonLink>
        </div>
        {/* One name, "Menu", whose expanded state the browser exposes from popovertarget; the icon follows the menu (styles.css). */}
        <button
          type="button"
          popoverTarget="mobile-menu"
          aria-controls="mobile-menu"
          aria-label="Menu"
          className="menu-toggle -mr-2 inline-flex size-11 items-center justify-center rounded-lg text-navy-900 hover:bg-slate-100 md:hidden"
        >
          <MenuIcon className="menu-toggle-open size-6" />
          <CloseIcon className="menu-toggle-close size-6" />
        </button>
        {/*
          Hidden (display: none) while closed, so the header holds no second
          visible copy of its links. It overlays the page just below the
          header rather than pushing it down, so choosing an anchor lands where
          it should.
        */}
        <div
          id="mobile-menu"
          data-testid="mobile-menu"
          popover="auto"
          className="mobile-menu inset-x-0 top-16 bottom-auto m-0 w-full max-w-none border-b border-slate-200 bg-white px-4 pt-2 pb-5 shadow-lg md:hidden"
        >
          <nav aria-label="Mobile">
            <ul>
              {sectionLinks.map((link) => (
                <li key={link.id}>
                  <a href={`#${link.id}`} className={menuLink} onClick={closeMenu}>
                    {link.label}
                  </a>
                </li>
              ))}
              <li>
                <Link to={paths.signIn} className={menuLink} onClick={closeMenu}>
                  Sign In
                </Link>
              </li>
            </ul>
          </nav>
          <ButtonLink to={paths.joinWaitlist} variant="accent" size="lg" className="mt-3 w-full" onClick={closeMenu}>
            Join Waitlist
          </ButtonLink>
        </div>
      </div>
    </header>
  );
}

import { useEffect, useRef, useState } from 'react';
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

export function SiteHeader() {
  const [open, setOpen] = useState(false);
  const toggle = useRef<HTMLButtonElement>(null);

  // Escape closes the small-screen menu and gives focus back to its button.
  useEffect(() => {
    if (!open) return;
    const onKey = (event: KeyboardEvent) => {
      if (event.key !== 'Escape') return;
      setOpen(false);
      toggle.current?.focus();
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [open]);

  const close = () => setOpen(false);

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
        <button
          ref={toggle}
          type="button"
          className="-mr-2 inline-flex size-11 items-center justify-center rounded-lg text-navy-900 hover:bg-slate-100 md:hidden"
          aria-expanded={open}
          aria-controls="mobile-menu"
          aria-label={open ? 'Close menu' : 'Open menu'}
          onClick={() => setOpen((value) => !value)}
        >
          {open ? <CloseIcon /> : <MenuIcon />}
        </button>
        {/*
          Rendered only while open, so the header never holds a second, hidden
          copy of its links. Overlays the page rather than pushing it down, so
          choosing an anchor lands where it should.
        */}
        {open ? (
          <div
            id="mobile-menu"
            data-testid="mobile-menu"
            className="absolute inset-x-0 top-full border-b border-slate-200 bg-white px-4 pt-2 pb-5 shadow-lg md:hidden"
          >
            <nav aria-label="Mobile">
              <ul>
                {sectionLinks.map((link) => (
                  <li key={link.id}>
                    <a href={`#${link.id}`} className={menuLink} onClick={close}>
                      {link.label}
                    </a>
                  </li>
                ))}
                <li>
                  <Link to={paths.signIn} className={menuLink} onClick={close}>
                    Sign In
                  </Link>
                </li>
              </ul>
            </nav>
            <ButtonLink to={paths.joinWaitlist} variant="accent" size="lg" className="mt-3 w-full" onClick={close}>
              Join Waitlist
            </ButtonLink>
          </div>
        ) : null}
      </div>
    </header>
  );
}

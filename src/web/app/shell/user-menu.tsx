import { useEffect, useId, useRef, useState, type KeyboardEvent } from 'react';
import { Link } from 'react-router';
import type { Me } from '../../../shared/schemas/me';
import { paths } from '../../lib/paths';

const itemClasses =
  'flex w-full items-center px-4 py-2.5 text-left text-sm text-slate-800 hover:bg-slate-100 focus:bg-navy-50 focus:text-navy-900 focus:outline-2 focus:-outline-offset-2 focus:outline-navy-600';

const initialsOf = (name: string) =>
  name
    .split(/\s+/)
    .filter(Boolean)
    .slice(0, 2)
    .map((part) => part[0]?.toUpperCase())
    .join('') || '?';

const menuItems = (menu: HTMLElement | null) => Array.from(menu?.querySelectorAll<HTMLElement>('[role="menuitem"]') ?? []);

const ROLE_LABELS = { owner: 'Owner', assistant: 'Assistant' } as const;

/**
 * The person's menu (WAI-ARIA menu button): Profile, Security and Sign out.
 * Arrow keys move between items, Escape closes it and returns to the button,
 * Tab or a click elsewhere closes it. On a phone only the initials show, so
 * the menu — and Sign out — always fit.
 */
export function UserMenu({ me, onSignOut }: { me: Me; onSignOut: () => void }) {
  const [open, setOpen] = useState(false);
  // Which item takes focus when the menu opens: the first, or the last (ArrowUp on the button).
  const [focusOnOpen, setFocusOnOpen] = useState<'first' | 'last'>('first');
  const container = useRef<HTMLDivElement>(null);
  const button = useRef<HTMLButtonElement>(null);
  const menu = useRef<HTMLDivElement>(null);
  const buttonId = useId();
  const menuId = useId();

  useEffect(() => {
    if (!open) return;
    const all = menuItems(menu.current);
    (focusOnOpen === 'last' ? all.at(-1) : all[0])?.focus();
    const onPointerDown = (event: PointerEvent) => {
      if (!container.current?.contains(event.target as Node)) setOpen(false);
    };
    document.addEventListener('pointerdown', onPointerDown);
    return () => document.removeEventListener('pointerdown', onPointerDown);
  }, [open, focusOnOpen]);

  function openWith(focus: 'first' | 'last') {
    setFocusOnOpen(focus);
    setOpen(true);
  }

  function close({ returnFocus }: { returnFocus: boolean }) {
    setOpen(false);
    if (returnFocus) button.current?.focus();
  }

  function onButtonKeyDown(event: KeyboardEvent<HTMLButtonElement>) {
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      event.preventDefault();
      openWith(event.key === 'ArrowDown' ? 'first' : 'last');
    }
  }

  function onMenuKeyDown(event: KeyboardEvent<HTMLDivElement>) {
    const all = menuItems(menu.current);
    const current = all.indexOf(document.activeElement as HTMLElement);
    const move = (index: number) => {
      event.preventDefault();
      all[(index + all.length) % all.length]?.focus();
    };
    switch (event.key) {
      case 'ArrowDown':
        return move(current + 1);
      case 'ArrowUp':
        return move(current - 1);
      case 'Home':
        return move(0);
      case 'End':
        return move(all.length - 1);
      case 'Escape':
        event.preventDefault();
        return close({ returnFocus: true });
      case 'Tab':
        // Focus moves on to the next control of the page, as it would from the button.
        return close({ returnFocus: false });
    }
  }

  const role = me.platformAdmin ? 'Platform admin' : me.team ? `${ROLE_LABELS[me.team.role]}, ${me.team.name}` : null;

  return (
    <div ref={container} className="relative">
      <button
        ref={button}
        id={buttonId}
        type="button"
        aria-haspopup="menu"
        aria-expanded={open}
        aria-controls={open ? menuId : undefined}
        onClick={() => (open ? close({ returnFocus: false }) : openWith('first'))}
        onKeyDown={onButtonKeyDown}
        className="flex items-center gap-2 rounded-full py-1 pr-2 pl-1 text-sm font-semibold text-slate-900 hover:bg-slate-100 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-navy-600"
      >
        <span aria-hidden="true" className="flex size-8 items-center justify-center rounded-full bg-navy-900 text-xs font-bold text-white">
          {initialsOf(me.user.name)}
        </span>
        <span className="sr-only max-w-48 truncate sm:not-sr-only">{me.user.name}</span>
        <svg aria-hidden="true" viewBox="0 0 20 20" fill="currentColor" className={`size-4 text-slate-500 transition-transform ${open ? 'rotate-180' : ''}`}>
          <path d="M5.22 8.22a.75.75 0 0 1 1.06 0L10 11.94l3.72-3.72a.75.75 0 1 1 1.06 1.06l-4.25 4.25a.75.75 0 0 1-1.06 0L5.22 9.28a.75.75 0 0 1 0-1.06Z" />
        </svg>
      </button>
      {open ? (
        <div className="absolute right-0 z-50 mt-2 w-64 max-w-[calc(100vw-2rem)] overflow-hidden rounded-xl border border-slate-200 bg-white shadow-lg">
          <div className="border-b border-slate-200 px-4 py-3 text-sm">
            <p className="truncate font-semibold text-slate-900">{me.user.name}</p>
            <p className="truncate text-slate-600">{me.user.email}</p>
            {role ? <p className="mt-1 truncate text-xs text-slate-600">{role}</p> : null}
          </div>
          <div ref={menu} id={menuId} role="menu" aria-labelledby={buttonId} onKeyDown={onMenuKeyDown} className="py-1">
            <Link role="menuitem" tabIndex={-1} to={paths.profile} onClick={() => close({ returnFocus: false })} className={itemClasses}>
              Profile
            </Link>
            <Link role="menuitem" tabIndex={-1} to={paths.security} onClick={() => close({ returnFocus: false })} className={itemClasses}>
              Security
            </Link>
            <div role="separator" className="my-1 border-t border-slate-200" />
            <button
              role="menuitem"
              tabIndex={-1}
              type="button"
              onClick={() => {
                close({ returnFocus: false });
                onSignOut();
              }}
              className={itemClasses}
            >
              Sign out
            </button>
          </div>
        </div>
      ) : null}
    </div>
  );
}

import { useEffect, useId, useRef, useState, type KeyboardEvent } from 'react';
import { isExitStage, STAGE_LABELS, type LoanStage } from '../../../../shared/domain/loan-stages';
import type { PipelineRow } from '../../../../shared/schemas/loans';
import { movesFor } from '../format';

/**
 * "Move to…": a menu button listing the stages this loan may move to (the
 * keyboard's way to do what dragging a card does). Arrow keys, Home and End
 * move through the stages, Enter picks one, Escape closes and gives focus
 * back to the button. The list opens inside the card, on a line of its own
 * below the button's (the button's wrapper is `display: contents`, so the
 * card's wrapping row lays both out), so a column never cuts it off, on a
 * phone too.
 */
export function MoveMenu({ row, busy, onMove }: { row: PipelineRow; busy: boolean; onMove: (row: PipelineRow, to: LoanStage) => void }) {
  const [open, setOpen] = useState(false);
  const menuId = useId();
  const buttonRef = useRef<HTMLButtonElement>(null);
  const menuRef = useRef<HTMLUListElement>(null);
  const moves = movesFor(row);

  useEffect(() => {
    if (open) menuRef.current?.querySelector<HTMLElement>('[role="menuitem"]')?.focus();
  }, [open]);

  useEffect(() => {
    if (!open) return;
    const onPointerDown = (event: PointerEvent) => {
      const target = event.target as Node;
      if (!menuRef.current?.contains(target) && !buttonRef.current?.contains(target)) setOpen(false);
    };
    document.addEventListener('pointerdown', onPointerDown);
    return () => document.removeEventListener('pointerdown', onPointerDown);
  }, [open]);

  if (moves.length === 0) return null;

  const close = () => {
    setOpen(false);
    buttonRef.current?.focus();
  };

  function onMenuKeyDown(event: KeyboardEvent<HTMLUListElement>) {
    const items = [...(menuRef.current?.querySelectorAll<HTMLElement>('[role="menuitem"]') ?? [])];
    const index = items.indexOf(document.activeElement as HTMLElement);
    const focus = (i: number) => items[(i + items.length) % items.length]?.focus();
    switch (event.key) {
      case 'ArrowDown':
        focus(index + 1);
        break;
      case 'ArrowUp':
        focus(index - 1);
        break;
      case 'Home':
        focus(0);
        break;
      case 'End':
        focus(items.length - 1);
        break;
      case 'Escape':
        close();
        break;
      case 'Tab':
        setOpen(false);
        return;
      default:
        return;
    }
    event.preventDefault();
  }

  const reopen = isExitStage(row.stage);
  return (
    <div className="contents">
      <button
        ref={buttonRef}
        type="button"
        // The visible words first, then whose loan: "Move to…: Ana Garcia".
        aria-label={`${reopen ? 'Reopen…' : 'Move to…'}: ${row.borrowerName}`}
        aria-haspopup="menu"
        aria-expanded={open}
        aria-controls={open ? menuId : undefined}
        disabled={busy}
        onClick={() => setOpen(!open)}
        onKeyDown={(event) => {
          if (event.key === 'ArrowDown' && !open) {
            event.preventDefault();
            setOpen(true);
          }
        }}
        className="inline-flex h-8 items-center gap-1 rounded-md border border-slate-300 bg-white px-2 text-xs font-semibold text-slate-800 hover:bg-slate-50 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-navy-600 disabled:cursor-not-allowed disabled:opacity-70"
      >
        <span>{reopen ? 'Reopen…' : 'Move to…'}</span>
        <svg aria-hidden="true" viewBox="0 0 20 20" className={`size-4 transition-transform ${open ? 'rotate-180' : ''}`} fill="currentColor">
          <path d="M5.22 8.22a.75.75 0 0 1 1.06 0L10 11.94l3.72-3.72a.75.75 0 1 1 1.06 1.06l-4.25 4.25a.75.75 0 0 1-1.06 0L5.22 9.28a.75.75 0 0 1 0-1.06Z" />
        </svg>
      </button>
      {open ? (
        <ul
          ref={menuRef}
          id={menuId}
          role="menu"
          aria-label={`Move ${row.borrowerName} to`}
          onKeyDown={onMenuKeyDown}
          className="mt-1 basis-full rounded-lg border border-slate-200 bg-white py-1 shadow-lg"
        >
          {moves.map((stage) => (
            <li key={stage} role="none">
              <button
                type="button"
                role="menuitem"
                tabIndex={-1}
                onClick={() => {
                  close();
                  onMove(row, stage);
                }}
                className={`block w-full px-3 py-2 text-left text-sm hover:bg-slate-100 focus:bg-navy-50 focus:outline-none ${
                  isExitStage(stage) ? 'text-red-800' : 'text-slate-800'
                }`}
              >
                {STAGE_LABELS[stage]}
                {isExitStage(stage) ? '…' : ''}
              </button>
            </li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}

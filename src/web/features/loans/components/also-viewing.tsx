import type { PresenceViewer } from '../../../../shared/schemas/realtime';

/**
 * Who else has this loan open right now, from the live stream's presence
 * events: "Also viewing: Bea Borrower, Harbor Lending". A polite live region,
 * so a screen reader hears someone arrive without losing its place; nothing
 * at all when nobody else is there. Borrowers see the team as its name
 * (the server sends it so, decision 020).
 */
export function AlsoViewing({ viewers }: { viewers: PresenceViewer[] }) {
  return (
    <p role="status" aria-live="polite" className="text-sm text-slate-600" data-testid="also-viewing">
      {viewers.length > 0 ? (
        <>
          <span aria-hidden="true" className="mr-1.5 inline-block size-2 rounded-full bg-emerald-500 align-middle" />
          <span className="font-semibold text-slate-700">Also viewing:</span> {viewers.map((viewer) => viewer.name).join(', ')}
        </>
      ) : null}
    </p>
  );
}

import { buttonClasses } from '../../../ui/button';
import { lenderPackageUrl } from '../api/lender-package';

/**
 * "Download lender package": a zip of the cover sheet and the latest approved
 * version of every item. A plain link with `download`, so the browser saves
 * the stream under the server's name and shows its progress (the length is
 * known before the first byte). The team's loan page only: borrowers never
 * see it, and the server hides the route from them.
 */
export function LenderPackageLink({ loanId }: { loanId: string }) {
  return (
    <a href={lenderPackageUrl(loanId)} download className={buttonClasses({ variant: 'secondary', size: 'sm' })}>
      <svg aria-hidden="true" viewBox="0 0 20 20" className="size-4" fill="currentColor">
        <path d="M10.75 2.75a.75.75 0 0 0-1.5 0v8.69L6.53 8.72a.75.75 0 0 0-1.06 1.06l4 4a.75.75 0 0 0 1.06 0l4-4a.75.75 0 1 0-1.06-1.06l-2.72 2.72V2.75Z" />
        <path d="M3.5 12.75a.75.75 0 0 0-1.5 0v2.5A2.75 2.75 0 0 0 4.75 18h10.5A2.75 2.75 0 0 0 18 15.25v-2.5a.75.75 0 0 0-1.5 0v2.5c0 .69-.56 1.25-1.25 1.25H4.75c-.69 0-1.25-.56-1.25-1.25v-2.5Z" />
      </svg>
      Download lender package
    </a>
  );
}

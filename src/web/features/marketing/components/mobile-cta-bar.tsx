import { paths } from '../../../lib/paths';
import { ButtonLink } from '../../../ui/button';

/** Fixed to the bottom below the md breakpoint; the page adds bottom padding so it never covers the footer. */
export function MobileCtaBar() {
  return (
    <div
      data-testid="mobile-cta-bar"
      className="fixed inset-x-0 bottom-0 z-30 border-t border-slate-200 bg-white/95 px-4 pt-3 pb-[max(0.75rem,env(safe-area-inset-bottom))] shadow-[0_-4px_16px_rgb(11_37_69/0.08)] backdrop-blur md:hidden"
    >
      <ButtonLink to={paths.joinWaitlist} variant="accent" size="lg" className="w-full">
        Get Early Access
      </ButtonLink>
    </div>
  );
}

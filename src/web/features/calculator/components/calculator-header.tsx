import { paths } from '../../../lib/paths';
import { ButtonLink } from '../../../ui/button';
import { Logo } from '../../../ui/logo';

/** The public header, short: the landing page's anchors belong to the landing page. */
export function CalculatorHeader() {
  return (
    <header className="sticky top-0 z-40 border-b border-slate-200/80 bg-white/90 backdrop-blur">
      <div className="mx-auto flex h-16 max-w-6xl items-center justify-between gap-4 px-4 sm:px-6">
        <Logo />
        <div className="flex items-center gap-2">
          <div className="hidden sm:block">
            <ButtonLink to={paths.signIn} variant="ghost">
              Sign In
            </ButtonLink>
          </div>
          <ButtonLink to={paths.joinWaitlist} variant="accent">
            Join Waitlist
          </ButtonLink>
        </div>
      </div>
    </header>
  );
}

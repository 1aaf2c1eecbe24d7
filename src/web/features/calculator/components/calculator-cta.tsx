import { paths } from '../../../lib/paths';
import { ButtonLink } from '../../../ui/button';

/** The page ends as the landing page does: an invitation to the waitlist. */
export function CalculatorCta() {
  return (
    <section aria-labelledby="calculator-cta-title" className="bg-navy-900 px-4 py-16 [&_:focus-visible]:outline-white sm:px-6 sm:py-20">
      <div className="mx-auto max-w-3xl text-center">
        <h2 id="calculator-cta-title" className="text-3xl font-bold tracking-tight text-balance text-white sm:text-4xl">
          Run every DSCR loan from one shared file
        </h2>
        <p className="mt-4 text-lg leading-relaxed text-navy-100">
          The same figures on each loan file, beside its stage timeline, its document checklist and the comments with your borrower. Join the waitlist for early
          access.
        </p>
        <div className="mt-8 flex justify-center">
          <ButtonLink to={paths.joinWaitlist} variant="accent" size="lg" className="w-full sm:w-auto">
            Join Waitlist
          </ButtonLink>
        </div>
      </div>
    </section>
  );
}

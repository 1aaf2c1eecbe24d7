import { paths } from '../../../lib/paths';
import { ButtonLink } from '../../../ui/button';
import { pricingItems } from '../content';
import { CheckIcon } from '../../../ui/icons';
import { SectionHeading } from './section-heading';

export function Pricing() {
  return (
    <section id="pricing" aria-labelledby="pricing-title" className="bg-slate-50 px-4 py-20 sm:px-6 sm:py-24">
      <div className="mx-auto max-w-6xl">
        <SectionHeading id="pricing-title" eyebrow="Pricing" title="Simple pricing for your whole team">
          Every feature for brokers and their assistants, with nothing extra to set up. Borrowers never pay.
        </SectionHeading>
        <div className="mx-auto mt-14 grid max-w-4xl overflow-hidden rounded-3xl border border-slate-200 bg-white shadow-lg shadow-navy-900/5 md:grid-cols-2">
          <div className="flex flex-col justify-center bg-navy-900 p-8 text-white sm:p-10">
            <h3 className="text-sm font-semibold tracking-wide text-accent-400 uppercase">Early access</h3>
            <p className="mt-4 text-3xl font-bold tracking-tight sm:text-4xl">Plans start at $499/mo</p>
            <p className="mt-4 text-navy-100">Join the waitlist and we will contact you when your team&apos;s spot opens.</p>
            <ButtonLink to={paths.joinWaitlist} variant="accent" size="lg" className="mt-8 w-full sm:w-auto sm:self-start">
              Join Waitlist
            </ButtonLink>
          </div>
          <div className="p-8 sm:p-10">
            <h3 className="font-semibold text-navy-900">Every plan includes</h3>
            <ul className="mt-5 space-y-3.5">
              {pricingItems.map((item) => (
                <li key={item} className="flex items-center gap-3 text-slate-700">
                  <span className="flex size-6 shrink-0 items-center justify-center rounded-full bg-accent-50 text-accent-700">
                    <CheckIcon className="size-4" />
                  </span>
                  {item}
                </li>
              ))}
            </ul>
          </div>
        </div>
      </div>
    </section>
  );
}

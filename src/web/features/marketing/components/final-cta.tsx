import { paths } from '../../../lib/paths';
import { usePublicConfig } from '../../../lib/public-config';
import { demoMailto } from '../../../lib/demo-mailto';
import { ButtonLink } from '../../../ui/button';
import { MailIcon } from '../../../ui/icons';

export function FinalCta() {
  const { contactEmail } = usePublicConfig();
  return (
    <section aria-labelledby="final-cta-title" className="bg-navy-900 px-4 py-20 [&_:focus-visible]:outline-white sm:px-6 sm:py-24">
      <div className="mx-auto max-w-3xl text-center">
        <h2 id="final-cta-title" className="text-3xl font-bold tracking-tight text-balance text-white sm:text-4xl">
          Ready to close your next DSCR loan faster?
        </h2>
        <p className="mt-4 text-lg leading-relaxed text-navy-100">
          Join the waitlist for early access, or book a personal demo and we will walk you through a loan file.
        </p>
        <div className="mt-10 flex flex-col justify-center gap-3 sm:flex-row">
          <ButtonLink to={paths.joinWaitlist} variant="accent" size="lg">
            Get Early Access
          </ButtonLink>
          <a
            href={demoMailto(contactEmail)}
            className="inline-flex h-12 items-center justify-center gap-2 rounded-lg border border-white/40 px-6 text-base font-semibold text-white transition-colors hover:bg-white/10"
          >
            <MailIcon className="size-5" />
            Book Personal Demo
          </a>
        </div>
      </div>
    </section>
  );
}

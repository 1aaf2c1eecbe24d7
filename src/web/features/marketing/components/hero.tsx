import { paths } from '../../../lib/paths';
import { usePublicConfig } from '../../../lib/public-config';
import { buttonClasses, ButtonLink } from '../../../ui/button';
import { trustPoints } from '../content';
import { Counters } from './counters';
import { DashboardMockup } from './dashboard-mockup';
import { ArrowRightIcon, CheckIcon } from '../../../ui/icons';

export function Hero() {
  const { brandName } = usePublicConfig();
  return (
    <section aria-labelledby="hero-title" className="overflow-hidden bg-linear-to-b from-navy-50 via-white to-white">
      <div className="mx-auto grid max-w-6xl gap-14 px-4 pt-12 pb-16 sm:px-6 sm:pt-16 lg:grid-cols-[1.05fr_1fr] lg:items-center lg:gap-12 lg:pt-20 lg:pb-24">
        <div className="relative z-10">
          <p className="inline-flex items-center gap-2 rounded-full border border-accent-100 bg-white px-3 py-1 text-sm font-medium text-accent-700">
            <span aria-hidden="true" className="size-2 rounded-full bg-accent-500" />
            DSCR loan tracking for mortgage brokers
          </p>
          <h1
            id="hero-title"
            className="mt-6 text-4xl font-bold tracking-tight text-balance text-navy-900 sm:text-5xl lg:text-5xl lg:leading-[1.1] xl:text-[3.4rem] xl:leading-[1.08]"
          >
            Every DSCR loan file, from first call to funding
          </h1>
          <p className="mt-6 max-w-xl text-lg leading-relaxed text-slate-600">
            {brandName} gives brokers, assistants and borrowers one shared loan file: a stage-by-stage timeline, a document checklist with status tags and
            threaded comments. No more e-mail chains and shared drives.
          </p>
          <div className="mt-8 flex flex-col gap-3 sm:flex-row">
            <ButtonLink to={paths.joinWaitlist} variant="accent" size="lg">
              Get Early Access
              <ArrowRightIcon className="size-5" />
            </ButtonLink>
            <a href="#how-it-works" className={buttonClasses({ variant: 'secondary', size: 'lg' })}>
              See How It Works
            </a>
          </div>
          <ul className="mt-6 flex flex-wrap gap-x-5 gap-y-2 text-sm text-slate-600">
            {trustPoints.map((point) => (
              <li key={point} className="inline-flex items-center gap-1.5">
                <CheckIcon className="size-4 text-accent-600" />
                {point}
              </li>
            ))}
          </ul>
          <Counters className="mt-10 max-w-lg border-t border-slate-200 pt-8" />
        </div>
        <DashboardMockup />
      </div>
    </section>
  );
}

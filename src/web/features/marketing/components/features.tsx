import { features } from '../content';
import { iconByName } from '../../../ui/icons';
import { SectionHeading } from './section-heading';

export function Features() {
  return (
    <section id="features" aria-labelledby="features-title" className="bg-slate-50 px-4 py-20 sm:px-6 sm:py-24">
      <div className="mx-auto max-w-6xl">
        <SectionHeading id="features-title" eyebrow="Features" title="Key Features">
          Everything a DSCR loan file needs, built for brokers, their assistants and their borrowers.
        </SectionHeading>
        <ul className="mt-14 grid gap-6 sm:grid-cols-2">
          {features.map((feature) => {
            const Icon = iconByName[feature.icon];
            return (
              <li key={feature.title} className="rounded-2xl border border-slate-200 bg-white p-6 shadow-sm sm:p-8">
                <span className="flex size-12 items-center justify-center rounded-xl bg-accent-600 text-white">
                  <Icon />
                </span>
                <h3 className="mt-5 text-lg font-semibold text-navy-900">{feature.title}</h3>
                <p className="mt-2 text-slate-600">{feature.description}</p>
              </li>
            );
          })}
        </ul>
      </div>
    </section>
  );
}

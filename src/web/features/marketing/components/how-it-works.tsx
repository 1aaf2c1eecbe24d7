import { steps } from '../content';
import { iconByName } from '../../../ui/icons';
import { SectionHeading } from './section-heading';

export function HowItWorks() {
  return (
    <section id="how-it-works" aria-labelledby="how-it-works-title" className="bg-slate-50 px-4 py-20 sm:px-6 sm:py-24">
      <div className="mx-auto max-w-6xl">
        <SectionHeading id="how-it-works-title" eyebrow="Four steps" title="How It Works">
          From the first invitation to the closing table, everyone works from the same loan file.
        </SectionHeading>
        <ol className="mt-14 grid gap-6 sm:grid-cols-2 lg:grid-cols-4">
          {steps.map((step, index) => {
            const Icon = iconByName[step.icon];
            return (
              <li key={step.title} className="relative rounded-2xl border border-slate-200 bg-white p-6 shadow-sm">
                <div className="flex items-center justify-between">
                  <span className="flex size-11 items-center justify-center rounded-xl bg-navy-900 text-accent-400">
                    <Icon />
                  </span>
                  <span aria-hidden="true" className="text-4xl font-bold text-slate-200 tabular-nums">
                    {index + 1}
                  </span>
                </div>
                <h3 className="mt-5 text-lg font-semibold text-navy-900">
                  <span className="sr-only">Step {index + 1}: </span>
                  {step.title}
                </h3>
                <p className="mt-2 text-slate-600">{step.description}</p>
              </li>
            );
          })}
        </ol>
      </div>
    </section>
  );
}

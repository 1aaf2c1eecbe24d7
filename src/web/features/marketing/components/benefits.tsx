import { benefits } from '../content';
import { iconByName } from '../../../ui/icons';

export function Benefits() {
  return (
    <section aria-labelledby="benefits-title" className="px-4 py-20 sm:px-6 sm:py-24">
      <div className="mx-auto grid max-w-6xl gap-12 lg:grid-cols-[2fr_3fr] lg:gap-16">
        <div>
          <p className="text-sm font-semibold tracking-wide text-accent-700 uppercase">Benefits</p>
          <h2 id="benefits-title" className="mt-3 text-3xl font-bold tracking-tight text-navy-900 sm:text-4xl">
            Why Brokers Love It
          </h2>
          <p className="mt-4 text-lg leading-relaxed text-slate-600">
            DSCR files stall on paperwork: leases, rent rolls, entity documents, reserves. Putting all of it on one shared checklist keeps every file moving.
          </p>
        </div>
        <ul className="grid gap-x-10 gap-y-10 sm:grid-cols-2">
          {benefits.map((benefit) => {
            const Icon = iconByName[benefit.icon];
            return (
              <li key={benefit.title} className="flex gap-4">
                <span className="flex size-11 shrink-0 items-center justify-center rounded-xl bg-accent-50 text-accent-700">
                  <Icon />
                </span>
                <div>
                  <h3 className="text-lg font-semibold text-navy-900">{benefit.title}</h3>
                  <p className="mt-1.5 text-slate-600">{benefit.description}</p>
                </div>
              </li>
            );
          })}
        </ul>
      </div>
    </section>
  );
}

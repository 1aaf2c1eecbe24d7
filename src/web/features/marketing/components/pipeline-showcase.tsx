import { pipeline, type PipelineLoan } from '../content';
import { CheckIcon } from '../../../ui/icons';
import { SectionHeading } from './section-heading';

const stageTone: Record<PipelineLoan['tone'], string> = {
  accent: 'bg-accent-50 text-accent-700 ring-accent-100',
  navy: 'bg-navy-50 text-navy-700 ring-navy-100',
  amber: 'bg-amber-50 text-amber-800 ring-amber-100',
  slate: 'bg-slate-100 text-slate-700 ring-slate-200',
};

function Stage({ loan }: { loan: PipelineLoan }) {
  return (
    <span className={`inline-block rounded-full px-2.5 py-0.5 text-xs font-semibold whitespace-nowrap ring-1 ring-inset ${stageTone[loan.tone]}`}>
      {loan.stage}
    </span>
  );
}

/** A native <progress> styled through its pseudo-elements: dynamic width without inline styles. */
function Progress({ value }: { value: number }) {
  return (
    <div className="flex items-center gap-3">
      <progress
        aria-hidden="true"
        value={value}
        max={100}
        className="h-2 w-full min-w-16 appearance-none overflow-hidden rounded-full bg-slate-100 [&::-moz-progress-bar]:bg-accent-600 [&::-webkit-progress-bar]:bg-slate-100 [&::-webkit-progress-value]:rounded-full [&::-webkit-progress-value]:bg-accent-600"
      />
      <span className="w-10 shrink-0 text-right text-sm font-medium text-slate-700 tabular-nums">{value}%</span>
    </div>
  );
}

function Outstanding({ items }: { items: string[] }) {
  if (items.length === 0) {
    return (
      <span className="inline-flex items-center gap-1.5 text-sm font-medium text-accent-700">
        <CheckIcon className="size-4" />
        None, ready to close
      </span>
    );
  }
  return (
    <ul className="flex flex-wrap gap-1.5">
      {items.map((item) => (
        <li key={item} className="rounded-md border border-slate-200 bg-white px-2 py-0.5 text-xs text-slate-700">
          {item}
        </li>
      ))}
    </ul>
  );
}

export function PipelineShowcase() {
  return (
    <section aria-labelledby="pipeline-title" className="px-4 pt-12 pb-20 sm:px-6 sm:pb-24">
      <div className="mx-auto max-w-6xl">
        <SectionHeading id="pipeline-title" eyebrow="Your pipeline" title="Every open loan file, at a glance">
          See where each DSCR loan stands: its stage, its progress and the documents still outstanding, without opening a single e-mail thread.
        </SectionHeading>

        <div className="mt-12 hidden overflow-hidden rounded-2xl border border-slate-200 shadow-sm lg:block">
          <table className="w-full text-left text-sm">
            <caption className="sr-only">Sample pipeline of open DSCR loan files</caption>
            <thead className="bg-slate-50 text-xs font-semibold tracking-wide text-slate-600 uppercase">
              <tr>
                <th scope="col" className="py-3.5 pr-4 pl-5">
                  Borrower / property
                </th>
                <th scope="col" className="px-4 py-3.5 text-right whitespace-nowrap">
                  Loan amount
                </th>
                <th scope="col" className="px-4 py-3.5">
                  Stage
                </th>
                <th scope="col" className="w-40 px-4 py-3.5">
                  Progress
                </th>
                <th scope="col" className="px-4 py-3.5">
                  Outstanding documents
                </th>
              </tr>
            </thead>
            <tbody className="divide-y divide-slate-100 bg-white">
              {pipeline.map((loan) => (
                <tr key={loan.borrower}>
                  <th scope="row" className="min-w-60 py-4 pr-4 pl-5 font-normal">
                    <span className="block font-semibold text-slate-900">{loan.borrower}</span>
                    <span className="block text-slate-600">{loan.property}</span>
                  </th>
                  <td className="px-4 py-4 text-right font-medium text-slate-900 tabular-nums">{loan.amount}</td>
                  <td className="px-4 py-4">
                    <Stage loan={loan} />
                  </td>
                  <td className="px-4 py-4">
                    <Progress value={loan.progress} />
                  </td>
                  <td className="px-4 py-4">
                    <Outstanding items={loan.outstanding} />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>

        {/* Small screens get the same sample files as cards. */}
        <ul aria-label="Sample pipeline of open DSCR loan files" className="mt-10 grid gap-4 sm:grid-cols-2 lg:hidden">
          {pipeline.map((loan) => (
            <li key={loan.borrower} className="flex flex-col rounded-2xl border border-slate-200 bg-white p-4 shadow-sm">
              <div className="flex items-start justify-between gap-3">
                <div className="min-w-0">
                  <p className="font-semibold text-slate-900">{loan.borrower}</p>
                  <p className="text-sm text-slate-600">{loan.property}</p>
                </div>
                <p className="shrink-0 font-semibold text-slate-900 tabular-nums">{loan.amount}</p>
              </div>
              <div className="mt-3 flex items-center gap-3">
                <Stage loan={loan} />
                <div className="flex-1">
                  <Progress value={loan.progress} />
                </div>
              </div>
              <div className="mt-3 flex-1 border-t border-slate-100 pt-3">
                <p className="mb-1.5 text-xs font-semibold tracking-wide text-slate-600 uppercase">Outstanding documents</p>
                <Outstanding items={loan.outstanding} />
              </div>
            </li>
          ))}
        </ul>
        <p className="mt-4 text-center text-sm text-slate-600">Sample data for illustration.</p>
      </div>
    </section>
  );
}

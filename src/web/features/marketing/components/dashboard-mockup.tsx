import { mockupProgress, sampleComments, timeline, type TimelineStatus } from '../content';
import { CheckIcon } from '../../../ui/icons';

const statusText: Record<TimelineStatus, string> = { complete: 'Complete', current: 'Current', pending: 'Pending' };
const statusTag: Record<TimelineStatus, string> = {
  complete: 'bg-accent-50 text-accent-700',
  current: 'bg-navy-50 text-navy-700',
  pending: 'bg-slate-100 text-slate-600',
};

function StepMarker({ status }: { status: TimelineStatus }) {
  if (status === 'complete') {
    return (
      <span className="flex size-6 items-center justify-center rounded-full bg-accent-600 text-white">
        <CheckIcon className="size-3.5" />
      </span>
    );
  }
  if (status === 'current') {
    return (
      <span className="flex size-6 items-center justify-center rounded-full border-2 border-navy-700 bg-white">
        <span className="size-2.5 rounded-full bg-navy-700 motion-safe:animate-pulse" />
      </span>
    );
  }
  return <span className="size-6 rounded-full border-2 border-slate-300 bg-white" />;
}

/** A display-only picture of a loan file, built from sample data. */
export function DashboardMockup() {
  return (
    <figure className="relative mx-auto w-full max-w-xl lg:max-w-none">
      <div aria-hidden="true" className="absolute -inset-6 rounded-[2.5rem] bg-linear-to-tr from-accent-100/70 via-navy-50 to-navy-100/60 blur-2xl" />
      <div className="relative overflow-hidden rounded-2xl border border-slate-200 bg-white shadow-2xl shadow-navy-900/10">
        <div aria-hidden="true" className="flex items-center gap-1.5 border-b border-slate-100 bg-slate-50 px-4 py-3">
          <span className="size-2.5 rounded-full bg-slate-300" />
          <span className="size-2.5 rounded-full bg-slate-300" />
          <span className="size-2.5 rounded-full bg-slate-300" />
        </div>
        <div className="space-y-6 p-5 sm:p-6">
          <div className="flex items-start justify-between gap-4">
            <div>
              <p className="text-xs font-semibold tracking-wide text-slate-600 uppercase">DSCR purchase · $356,000</p>
              <p className="mt-1 font-semibold text-navy-900">Marcus Lee · Duplex, Raleigh, NC</p>
            </div>
            <span className="shrink-0 rounded-full bg-accent-50 px-2.5 py-1 text-xs font-semibold text-accent-700">DSCR 1.28</span>
          </div>

          <div>
            <div className="flex items-baseline justify-between text-sm">
              <span id="mockup-progress-label" className="font-medium text-slate-700">
                Overall progress
              </span>
              <span className="font-semibold text-navy-900 tabular-nums">{mockupProgress}%</span>
            </div>
            <div
              role="progressbar"
              aria-labelledby="mockup-progress-label"
              aria-valuenow={mockupProgress}
              aria-valuemin={0}
              aria-valuemax={100}
              data-testid="mockup-progress"
              className="mt-2 h-2.5 overflow-hidden rounded-full bg-slate-100"
            >
              {/* The CSP forbids inline styles: the width is a literal class matching mockupProgress. */}
              <div className="h-full w-[70%] rounded-full bg-accent-600" />
            </div>
          </div>

          <ol aria-label="Loan timeline" className="space-y-3">
            {timeline.map((step) => (
              <li
                key={step.label}
                data-testid="timeline-step"
                data-status={step.status}
                aria-current={step.status === 'current' ? 'step' : undefined}
                className="flex items-center gap-3"
              >
                <StepMarker status={step.status} />
                <span className={`text-sm ${step.status === 'pending' ? 'text-slate-600' : 'font-medium text-slate-900'}`}>{step.label}</span>
                <span className={`ml-auto rounded-full px-2 py-0.5 text-xs font-medium ${statusTag[step.status]}`}>{statusText[step.status]}</span>
              </li>
            ))}
          </ol>

          <ul aria-label="Comments" className="space-y-3 border-t border-slate-100 pt-5">
            {sampleComments.map((comment) => (
              <li key={comment.role} className="flex gap-3">
                <span
                  aria-hidden="true"
                  className={`flex size-8 shrink-0 items-center justify-center rounded-full text-xs font-semibold ${comment.role === 'Broker' ? 'bg-navy-900 text-white' : 'bg-accent-100 text-accent-700'}`}
                >
                  {comment.initials}
                </span>
                <div className={`min-w-0 flex-1 rounded-xl px-3.5 py-2.5 ${comment.role === 'Broker' ? 'bg-slate-50' : 'bg-accent-50'}`}>
                  <p className="flex flex-wrap items-center gap-x-2 text-xs">
                    <span className="font-semibold text-slate-900">{comment.author}</span>
                    <span
                      className={`rounded px-1.5 py-px font-medium ${comment.role === 'Broker' ? 'bg-navy-100 text-navy-800' : 'bg-accent-100 text-accent-700'}`}
                    >
                      {comment.role}
                    </span>
                    <span className="text-slate-600">{comment.time}</span>
                  </p>
                  <p className="mt-1 text-sm text-slate-700">{comment.text}</p>
                </div>
              </li>
            ))}
          </ul>
        </div>
      </div>
      <figcaption className="sr-only">Sample loan file, for illustration only</figcaption>
    </figure>
  );
}

import { useId } from 'react';
import { isExitStage, STAGE_LABELS, timelineSteps, type LoanStage, type MainStage, type StepState } from '../../../../shared/domain/loan-stages';
import { plural } from '../../../lib/plural';

const STATE_TEXT: Record<StepState, string> = { complete: 'Complete', current: 'Current', pending: 'Pending' };
const STATE_TAG: Record<StepState, string> = {
  complete: 'bg-accent-50 text-accent-700',
  current: 'bg-navy-50 text-navy-700',
  pending: 'bg-slate-100 text-slate-600',
};

function StepMarker({ state }: { state: StepState }) {
  if (state === 'complete') {
    return (
      <span className="flex size-6 shrink-0 items-center justify-center rounded-full bg-accent-600 text-white">
        <svg aria-hidden="true" viewBox="0 0 20 20" fill="currentColor" className="size-3.5">
          <path
            fillRule="evenodd"
            d="M16.7 5.3a1 1 0 0 1 0 1.4l-8 8a1 1 0 0 1-1.4 0l-4-4a1 1 0 1 1 1.4-1.4L8 12.6l7.3-7.3a1 1 0 0 1 1.4 0Z"
            clipRule="evenodd"
          />
        </svg>
      </span>
    );
  }
  if (state === 'current') {
    return (
      <span className="flex size-6 shrink-0 items-center justify-center rounded-full border-2 border-navy-700 bg-white">
        <span className="size-2.5 rounded-full bg-navy-700 motion-safe:animate-pulse" />
      </span>
    );
  }
  return <span className="size-6 shrink-0 rounded-full border-2 border-slate-300 bg-white" />;
}

/** The loan's progress bar (a native <progress>: the CSP allows no inline widths). */
export function LoanProgress({ progress }: { progress: number }) {
  const labelId = useId();
  return (
    <div>
      <div className="flex items-baseline justify-between text-sm">
        <span id={labelId} className="font-medium text-slate-700">
          Progress
        </span>
        <span className="font-semibold text-navy-900 tabular-nums">{progress}%</span>
      </div>
      <progress
        aria-labelledby={labelId}
        value={progress}
        max={100}
        className="mt-2 block h-2.5 w-full appearance-none overflow-hidden rounded-full bg-slate-100 [&::-moz-progress-bar]:bg-accent-600 [&::-webkit-progress-bar]:bg-slate-100 [&::-webkit-progress-value]:rounded-full [&::-webkit-progress-value]:bg-accent-600"
      >
        {progress}%
      </progress>
    </div>
  );
}

/**
 * The stage timeline as the landing page's mockup shows it: each main step
 * complete, current or pending; an exited loan shows the line as it left it.
 */
export function LoanTimeline({ stage, leftFromStage, daysInStage }: { stage: LoanStage; leftFromStage: MainStage | null; daysInStage: number }) {
  const exited = isExitStage(stage);
  return (
    <div>
      <p className="text-sm text-slate-700">
        {exited ? (
          <>
            <span className="font-semibold text-red-800">{STAGE_LABELS[stage]}</span> from {leftFromStage ? STAGE_LABELS[leftFromStage] : 'the pipeline'},{' '}
          </>
        ) : (
          <>
            At <span className="font-semibold text-slate-900">{STAGE_LABELS[stage]}</span> for{' '}
          </>
        )}
        {exited ? `${plural(daysInStage, 'day', 'days')} ago` : plural(daysInStage, 'day', 'days')}
      </p>
      <ol aria-label="Loan timeline" className="mt-4 space-y-3">
        {timelineSteps(stage, leftFromStage).map((step) => {
          const state = exited && step.state === 'current' ? 'pending' : step.state;
          return (
            <li
              key={step.stage}
              data-testid="timeline-step"
              data-state={state}
              aria-current={state === 'current' ? 'step' : undefined}
              className="flex items-center gap-3"
            >
              <StepMarker state={state} />
              <span className={`text-sm ${state === 'pending' ? 'text-slate-600' : 'font-medium text-slate-900'}`}>{STAGE_LABELS[step.stage]}</span>
              <span className={`ml-auto rounded-full px-2 py-0.5 text-xs font-medium ${STATE_TAG[state]}`}>{STATE_TEXT[state]}</span>
            </li>
          );
        })}
      </ol>
    </div>
  );
}

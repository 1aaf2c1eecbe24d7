import { useState, useSyncExternalStore } from 'react';
import { COUNTER_ANIMATION_MS } from '../../../../shared/constants';
import { counters } from '../content';

const easeOutCubic = (t: number) => 1 - (1 - t) ** 3;
const prefersReducedMotion = () => window.matchMedia('(prefers-reduced-motion: reduce)').matches;

/**
 * Animation progress from 0 to 1 over `duration` ms, as an external store.
 * The prerendered HTML and hydration read the server snapshot (1: the final
 * values, which is also what visitors without JavaScript keep); right after
 * hydration the client snapshot takes over and starts at 0, or stays at 1 for
 * people who prefer reduced motion.
 */
function createCountUp(duration: number) {
  let progress: number | undefined;
  const current = () => (progress ??= prefersReducedMotion() ? 1 : 0);
  return {
    getSnapshot: current,
    subscribe(notify: () => void) {
      if (current() >= 1) return () => {};
      let frame = 0;
      let start: number | undefined;
      const tick = (now: number) => {
        start ??= now;
        progress = easeOutCubic(Math.min(1, (now - start) / duration));
        notify();
        if (progress < 1) frame = requestAnimationFrame(tick);
      };
      frame = requestAnimationFrame(tick);
      return () => cancelAnimationFrame(frame);
    },
  };
}

const finished = () => 1;

export function Counters({ className = '' }: { className?: string }) {
  const [countUp] = useState(() => createCountUp(COUNTER_ANIMATION_MS));
  const progress = useSyncExternalStore(countUp.subscribe, countUp.getSnapshot, finished);
  return (
    <dl className={`grid grid-cols-3 gap-4 ${className}`}>
      {counters.map((counter) => (
        <div key={counter.label} className="flex flex-col-reverse gap-1">
          <dt className="text-sm leading-snug text-slate-600">{counter.label}</dt>
          <dd data-testid="counter" className="text-3xl font-bold tracking-tight text-navy-900 tabular-nums sm:text-4xl">
            {/* Floored, so the final numbers appear when the time is up, not early in the ease-out tail. */}
            {Math.floor(counter.value * progress)}
            {counter.suffix}
          </dd>
        </div>
      ))}
    </dl>
  );
}

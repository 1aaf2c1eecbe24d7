import { useEffect, useState } from 'react';
import { COUNTER_ANIMATION_MS } from '../../../../shared/constants';
import { counters } from '../content';

const easeOutCubic = (t: number) => 1 - (1 - t) ** 3;

/**
 * 0 → 1 over `duration` ms once mounted. Starts at 1, so the prerendered HTML
 * (and visitors without JavaScript or who prefer reduced motion) show the
 * final values.
 */
function useCountUp(duration: number) {
  const [progress, setProgress] = useState(1);
  useEffect(() => {
    if (window.matchMedia('(prefers-reduced-motion: reduce)').matches) return;
    let frame = 0;
    let start: number | undefined;
    const tick = (now: number) => {
      start ??= now;
      const t = Math.min(1, (now - start) / duration);
      setProgress(easeOutCubic(t));
      if (t < 1) frame = requestAnimationFrame(tick);
    };
    frame = requestAnimationFrame(tick);
    return () => cancelAnimationFrame(frame);
  }, [duration]);
  return progress;
}

export function Counters({ className = '' }: { className?: string }) {
  const progress = useCountUp(COUNTER_ANIMATION_MS);
  return (
    <dl className={`grid grid-cols-3 gap-4 ${className}`}>
      {counters.map((counter) => (
        <div key={counter.label} className="flex flex-col-reverse gap-1">
          <dt className="text-sm leading-snug text-slate-600">{counter.label}</dt>
          <dd data-testid="counter" className="text-3xl font-bold tracking-tight text-navy-900 tabular-nums sm:text-4xl">
            {Math.round(counter.value * progress)}
            {counter.suffix}
          </dd>
        </div>
      ))}
    </dl>
  );
}

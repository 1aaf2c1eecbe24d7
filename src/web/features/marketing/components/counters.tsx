import { counters } from '../content';

/**
 * Each counter's final value as the CSS variable its animation counts to: a
 * literal class, so Tailwind generates it (the CSP allows no style attributes).
 */
const countTo: Record<number, string> = { 2: '[--count-to:2]', 50: '[--count-to:50]', 100: '[--count-to:100]' };

/**
 * The hero counters count up from 0 over 1,200 ms (COUNTER_ANIMATION_MS) in
 * CSS alone (`.count-up` in styles.css): the animation starts with the first
 * paint, needs no JavaScript, and hydration, which keeps the same elements,
 * never restarts it. The animated figure is hidden from assistive technology;
 * the real text beside it is the final value. People who prefer reduced
 * motion see the final values at once.
 */
export function Counters({ className = '' }: { className?: string }) {
  return (
    <dl className={`grid grid-cols-3 gap-4 ${className}`}>
      {counters.map((counter) => (
        <div key={counter.label} className="flex flex-col-reverse gap-1">
          <dt className="text-sm leading-snug text-slate-600">{counter.label}</dt>
          <dd data-testid="counter" className="text-3xl font-bold tracking-tight text-navy-900 tabular-nums sm:text-4xl">
            <span className="sr-only">
              {counter.value}
              {counter.suffix}
            </span>
            <span aria-hidden="true" data-testid="counter-figure" data-suffix={counter.suffix} className={`count-up ${countTo[counter.value] ?? ''}`} />
          </dd>
        </div>
      ))}
    </dl>
  );
}

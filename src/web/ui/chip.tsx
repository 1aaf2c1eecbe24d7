import type { ReactNode } from 'react';

const TONES = {
  navy: 'bg-navy-50 text-navy-800 ring-navy-100',
  green: 'bg-accent-50 text-accent-700 ring-accent-100',
  slate: 'bg-slate-100 text-slate-700 ring-slate-200',
  red: 'bg-red-50 text-red-800 ring-red-100',
} as const;

/** A short status word in a pill. */
export function Chip({ tone, children }: { tone: keyof typeof TONES; children: ReactNode }) {
  return <span className={`inline-flex rounded-full px-2.5 py-0.5 text-xs font-semibold whitespace-nowrap ring-1 ring-inset ${TONES[tone]}`}>{children}</span>;
}

import { Link } from 'react-router';
import { paths } from '../lib/paths';
import { usePublicConfig } from '../lib/public-config';

export function LogoMark({ className = 'size-8' }: { className?: string }) {
  return (
    <svg aria-hidden="true" viewBox="0 0 32 32" className={className}>
      <rect width="32" height="32" rx="7" fill="#0b2545" />
      <path d="M9 17.5l4.5 4.5L23 11" fill="none" stroke="#34d399" strokeWidth="3.2" strokeLinecap="round" strokeLinejoin="round" />
    </svg>
  );
}

/** The brand mark and configured name, linking home. */
export function Logo({ tone = 'dark' }: { tone?: 'dark' | 'light' }) {
  const { brandName } = usePublicConfig();
  return (
    <Link to={paths.home} className="inline-flex items-center gap-2 rounded-md">
      <LogoMark />
      <span className={`text-lg font-bold tracking-tight ${tone === 'light' ? 'text-white' : 'text-navy-900'}`}>{brandName}</span>
    </Link>
  );
}

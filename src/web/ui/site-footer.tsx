import { useSyncExternalStore } from 'react';
import { Link } from 'react-router';
import { demoMailto } from '../lib/demo-mailto';
import { paths } from '../lib/paths';
import { usePublicConfig } from '../lib/public-config';
import { MailIcon, MapPinIcon, PhoneIcon } from './icons';
import { Logo } from './logo';

const link = 'rounded-sm transition-colors hover:text-white';
const noSubscription = () => () => {};

/**
 * The page is prerendered at build time, so the year cannot be part of the
 * server HTML: it is null while hydrating and filled in right after.
 */
function useCurrentYear() {
  return useSyncExternalStore(
    noSubscription,
    () => new Date().getFullYear(),
    () => null,
  );
}

export function SiteFooter() {
  const { brandName, contactEmail, contactPhone, contactPhoneHref, contactCity } = usePublicConfig();
  const year = useCurrentYear();
  // The server derives the tel: URI; transforming contactPhone here would run on
  // the prerender token instead of the configured number.
  const tel = contactPhoneHref;
  const mail = (subject: string) => `mailto:${contactEmail}?subject=${encodeURIComponent(subject)}`;
  const columns = [
    {
      title: 'Product',
      links: [
        { label: 'Features', href: paths.section('features') },
        { label: 'How It Works', href: paths.section('how-it-works') },
        { label: 'Pricing', href: paths.section('pricing') },
      ],
    },
    {
      title: 'Resources',
      links: [
        { label: 'DSCR Calculator', to: paths.dscrCalculator },
        { label: 'Join the Waitlist', to: paths.joinWaitlist },
        { label: 'Sign In', to: paths.signIn },
        { label: 'Book a Demo', href: demoMailto(contactEmail) },
      ],
    },
    {
      title: 'Company',
      links: [
        { label: 'Contact', href: `mailto:${contactEmail}` },
        { label: 'Call Us', href: tel },
      ],
    },
  ];

  return (
    <footer className="bg-navy-950 text-navy-200 [&_:focus-visible]:outline-accent-400">
      <div className="mx-auto grid max-w-6xl gap-12 px-4 pt-16 pb-10 sm:px-6 lg:grid-cols-[2fr_3fr]">
        <div>
          <Logo tone="light" />
          <p className="mt-4 max-w-xs text-sm leading-relaxed">
            One shared loan file for DSCR investor loans: brokers, assistants and borrowers, from first contact to funding.
          </p>
          <address className="mt-6 space-y-3 text-sm not-italic">
            <a href={`mailto:${contactEmail}`} className={`flex items-center gap-2.5 ${link}`}>
              <MailIcon className="size-4 shrink-0 text-accent-400" />
              {contactEmail}
            </a>
            <a href={tel} className={`flex items-center gap-2.5 ${link}`}>
              <PhoneIcon className="size-4 shrink-0 text-accent-400" />
              {contactPhone}
            </a>
            <p className="flex items-center gap-2.5">
              <MapPinIcon className="size-4 shrink-0 text-accent-400" />
              {contactCity}
            </p>
          </address>
        </div>
        <nav aria-label="Footer" className="grid grid-cols-2 gap-8 sm:grid-cols-3">
          {columns.map((column) => (
            <div key={column.title}>
              <h2 className="text-sm font-semibold text-white">{column.title}</h2>
              <ul className="mt-4 space-y-3 text-sm">
                {column.links.map((item) => (
                  <li key={item.label}>
                    {'to' in item && item.to ? (
                      <Link to={item.to} className={link}>
                        {item.label}
                      </Link>
                    ) : (
                      <a href={item.href} className={link}>
                        {item.label}
                      </a>
                    )}
                  </li>
                ))}
              </ul>
            </div>
          ))}
        </nav>
      </div>
      <div className="mx-auto flex max-w-6xl flex-col gap-4 border-t border-white/10 px-4 pt-6 pb-28 text-sm md:pb-6 sm:flex-row sm:items-center sm:justify-between sm:px-6">
        <p>
          © {year === null ? '' : `${year} `}
          {brandName}. All rights reserved.
        </p>
        <nav aria-label="Legal">
          <ul className="flex flex-wrap gap-x-6 gap-y-2">
            <li>
              <a href={mail('Cookie Policy')} className={link}>
                Cookie Policy
              </a>
            </li>
            <li>
              <a href={mail('CCPA request')} className={link}>
                CCPA
              </a>
            </li>
            <li>
              <a href={mail('Accessibility')} className={link}>
                Accessibility
              </a>
            </li>
          </ul>
        </nav>
      </div>
    </footer>
  );
}

import { Suspense, type ReactNode } from 'react';
import { PageLoading } from '../../ui/page-loading';
import { SubNav, type SubNavLink } from './sub-nav';

/**
 * An area of the app with several pages (the team's, the admin console):
 * its tabs stay in place while the page below them loads. One tab needs no
 * navigation, so it shows none.
 */
export function AreaLayout({ label, links, children }: { label: string; links: SubNavLink[]; children: ReactNode }) {
  return (
    <>
      {links.length > 1 ? <SubNav label={label} links={links} /> : null}
      <Suspense fallback={<PageLoading />}>{children}</Suspense>
    </>
  );
}

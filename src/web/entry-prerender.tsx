import { StrictMode } from 'react';
import { prerender } from 'react-dom/static';
import { StaticRouter } from 'react-router';
import { PRERENDER_TOKENS } from '../shared/public-config';
import { AppRoutes } from './app/routes';
import { PublicConfigProvider } from './lib/public-config';

export { publicPages } from './lib/paths';
// scripts/prerender.mjs escapes the page titles with the same function as the server.
export { escapeHtml } from '../shared/html';

/**
 * Renders one public page to HTML at build time, waiting for its lazy chunk.
 * Configured values are left as tokens (PRERENDER_TOKENS) that the server
 * fills in when it starts.
 */
export async function renderPage(pathname: string): Promise<string> {
  const { prelude } = await prerender(
    <StrictMode>
      <PublicConfigProvider value={PRERENDER_TOKENS}>
        <StaticRouter location={pathname}>
          <AppRoutes />
        </StaticRouter>
      </PublicConfigProvider>
    </StrictMode>,
  );
  return new Response(prelude).text();
}

/** The pages written to dist/pages at build time, with the source of each page's lazy chunk. */
export const prerenderTargets = [
  { name: 'home', source: 'features/marketing/landing-page.tsx' },
  { name: 'signIn', source: 'features/auth/signin-page.tsx' },
  { name: 'joinWaitlist', source: 'features/waitlist/join-waitlist-page.tsx' },
  { name: 'dscrCalculator', source: 'features/calculator/dscr-calculator-page.tsx' },
  { name: 'notFound', source: 'features/errors/not-found-page.tsx' },
] as const;

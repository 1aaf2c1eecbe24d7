import { usePageTitle } from '../../lib/use-page-title';
import { Benefits } from './components/benefits';
import { Features } from './components/features';
import { FinalCta } from './components/final-cta';
import { Hero } from './components/hero';
import { HowItWorks } from './components/how-it-works';
import { MobileCtaBar } from './components/mobile-cta-bar';
import { PipelineShowcase } from './components/pipeline-showcase';
import { Pricing } from './components/pricing';
import { SiteFooter } from '../../ui/site-footer';
import { SiteHeader } from './components/site-header';
import { Testimonials } from './components/testimonials';

export default function LandingPage() {
  usePageTitle('home');
  return (
    <>
      <a
        href="#main"
        className="sr-only focus:not-sr-only focus:fixed focus:top-3 focus:left-3 focus:z-50 focus:rounded-lg focus:bg-white focus:px-4 focus:py-2 focus:font-semibold focus:text-navy-900 focus:shadow-lg"
      >
        Skip to content
      </a>
      <SiteHeader />
      <main id="main">
        <Hero />
        <PipelineShowcase />
        <HowItWorks />
        <Benefits />
        <Features />
        <Testimonials />
        <Pricing />
        <FinalCta />
        <MobileCtaBar />
      </main>
      <SiteFooter />
    </>
  );
}

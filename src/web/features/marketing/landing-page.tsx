import { usePageTitle } from '../../lib/use-page-title';

export default function LandingPage() {
  usePageTitle('home');
  return <main><h1>Landing</h1></main>;
}

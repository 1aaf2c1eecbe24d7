import { Link } from 'react-router';
import { paths } from '../../lib/paths';
import { usePageTitle } from '../../lib/use-page-title';
import { Button } from '../../ui/button';
import { TextField } from '../../ui/field';
import { LogoMark } from '../../ui/logo';
import { AuthCardLayout } from './back-to-home';

/**
 * Sign In, as the seed specifies it. Accounts arrive with the next issue;
 * until then the browser's own checks (required, email type) are all it does.
 */
export default function SignInPage() {
  usePageTitle('signIn');
  return (
    <AuthCardLayout>
      <div className="flex flex-col items-center text-center">
        <LogoMark className="size-10" />
        <h1 className="mt-4 text-2xl font-bold tracking-tight text-slate-900">Sign In</h1>
        <p className="mt-1 text-sm text-slate-600">Welcome back. Sign in to your loan files.</p>
      </div>
      <form className="mt-8 space-y-5" onSubmit={(event) => event.preventDefault()} aria-label="Sign In">
        <TextField label="Email" name="email" type="email" autoComplete="email" required placeholder="you@example.com" />
        <TextField label="Password" name="password" type="password" autoComplete="current-password" required />
        <div className="flex justify-end">
          <a href="#forgot-password" className="text-sm font-medium text-navy-700 hover:text-navy-900 hover:underline">
            Forgot your password?
          </a>
        </div>
        <Button type="submit" size="lg" className="w-full">
          Sign In
        </Button>
      </form>
      <p className="mt-6 text-center text-sm text-slate-600">
        Don&apos;t have an account?{' '}
        <Link to={paths.joinWaitlist} className="font-semibold text-navy-700 hover:text-navy-900 hover:underline">
          Join the waitlist
        </Link>
      </p>
    </AuthCardLayout>
  );
}

import { useEffect, useRef, useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import '../../lib/zod-config';
import { JoinWaitlistSchema, type JoinWaitlistInput } from '../../../shared/schemas/waitlist';
import { toFieldIssues } from '../../../shared/schemas/validation';
import { ApiError } from '../../lib/api-client';
import { paths } from '../../lib/paths';
import { usePageTitle } from '../../lib/use-page-title';
import { Button, ButtonLink } from '../../ui/button';
import { TextField } from '../../ui/field';
import { Logo } from '../../ui/logo';
import { Spinner } from '../../ui/spinner';
import { useErrorNotice, useToast } from '../../ui/toast';
import { AuthCardLayout } from '../../ui/auth-card-layout';
import { joinWaitlist } from './api/join-waitlist';

type Status = 'idle' | 'submitting' | 'submitted';
type Fields = Required<Omit<JoinWaitlistInput, 'website'>> & { website: string };
type FieldErrors = Partial<Record<keyof Fields, string>>;

/**
 * What the form holds when it is sent. The fields are uncontrolled: the
 * browser keeps what people type, also what they typed before the app
 * hydrated the prerendered form (a controlled field would hold the app's
 * empty state instead).
 */
function readForm(form: HTMLFormElement): Fields {
  const data = new FormData(form);
  const text = (name: keyof Fields) => String(data.get(name) ?? '');
  return { fullName: text('fullName'), email: text('email'), phone: text('phone'), company: text('company'), website: text('website') };
}

export default function JoinWaitlistPage() {
  usePageTitle('joinWaitlist');
  const toast = useToast();
  const notifyError = useErrorNotice();
  const [status, setStatus] = useState<Status>('idle');
  const [errors, setErrors] = useState<FieldErrors>({});
  const successHeading = useRef<HTMLHeadingElement>(null);

  useEffect(() => {
    if (status === 'submitted') successHeading.current?.focus();
  }, [status]);

  const update = (field: keyof Fields) => () => {
    if (errors[field]) setErrors((current) => ({ ...current, [field]: undefined }));
  };

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (status === 'submitting') return;
    const form = readForm(event.currentTarget);
    const parsed = JoinWaitlistSchema.safeParse(form);
    if (!parsed.success) {
      setErrors(Object.fromEntries(toFieldIssues(parsed.error).map((issue) => [issue.field, issue.message])));
      return;
    }
    setErrors({});
    setStatus('submitting');
    try {
      await joinWaitlist(form);
      setStatus('submitted');
      toast({ title: 'Success!', description: "You've been added to our waitlist. We'll be in touch soon!" });
    } catch (error) {
      if (error instanceof ApiError && error.fieldErrors.length > 0) {
        setErrors(Object.fromEntries(error.fieldErrors.map((issue) => [issue.field, issue.message])));
      }
      setStatus('idle');
      notifyError('Waitlist submission failed', error);
    }
  }

  if (status === 'submitted') {
    return (
      <AuthCardLayout backLink={false}>
        <div className="flex flex-col items-center py-4 text-center">
          <span className="flex size-14 items-center justify-center rounded-full bg-accent-100 text-accent-700">
            <svg aria-hidden="true" viewBox="0 0 24 24" className="size-7" fill="none" stroke="currentColor" strokeWidth="2.5">
              <path strokeLinecap="round" strokeLinejoin="round" d="m5 13 4 4L19 7" />
            </svg>
          </span>
          <h1 ref={successHeading} tabIndex={-1} className="mt-5 text-2xl font-bold tracking-tight text-slate-900 focus:outline-none">
            You&apos;re on the list!
          </h1>
          <p className="mt-2 text-slate-600">Thank you for joining our waitlist. We&apos;ll be in touch soon with updates.</p>
          <ButtonLink to={paths.home} size="lg" className="mt-8 w-full">
            Back to Home
          </ButtonLink>
        </div>
      </AuthCardLayout>
    );
  }

  const submitting = status === 'submitting';
  return (
    <AuthCardLayout>
      <div className="flex flex-col items-center text-center">
        <Logo />
        <h1 className="mt-5 text-2xl font-bold tracking-tight text-slate-900">Join the Waitlist</h1>
        <p className="mt-2 text-sm text-slate-600">Be the first to know when the product launches. Get early access and exclusive updates.</p>
      </div>
      {/* POST: without JavaScript the browser never puts what was typed into the address (a submit before the app is there waits for it). */}
      <form method="post" className="mt-8 space-y-5" onSubmit={onSubmit} aria-label="Join the Waitlist" aria-busy={submitting}>
        <TextField
          label="Full Name"
          name="fullName"
          required
          autoComplete="name"
          placeholder="Enter your full name"
          maxLength={120}
          onChange={update('fullName')}
          error={errors.fullName}
        />
        <TextField
          label="Email"
          name="email"
          type="email"
          required
          autoComplete="email"
          placeholder="you@example.com"
          maxLength={254}
          onChange={update('email')}
          error={errors.email}
        />
        <TextField
          label="Phone Number"
          name="phone"
          type="tel"
          autoComplete="tel"
          placeholder="(555) 123-4567"
          maxLength={32}
          onChange={update('phone')}
          error={errors.phone}
        />
        <TextField
          label="Company"
          name="company"
          autoComplete="organization"
          placeholder="Your brokerage"
          maxLength={120}
          onChange={update('company')}
          error={errors.company}
        />
        {/* Honeypot: people never see or reach it; bots that fill it are quietly ignored. */}
        <div className="absolute -left-[10000px] h-px w-px overflow-hidden" aria-hidden="true">
          <label>
            Website
            <input type="text" name="website" tabIndex={-1} autoComplete="off" />
          </label>
        </div>
        <Button type="submit" size="lg" className="w-full" disabled={submitting}>
          {submitting ? (
            <>
              <Spinner />
              Submitting...
            </>
          ) : (
            'Join Waitlist'
          )}
        </Button>
      </form>
      <p className="mt-6 text-center text-sm text-slate-600">
        Already have an account?{' '}
        <Link to={paths.signIn} className="font-semibold text-navy-700 hover:text-navy-900 hover:underline">
          Sign in
        </Link>
      </p>
    </AuthCardLayout>
  );
}

import { Component, type ErrorInfo, type ReactNode } from 'react';
import { useLocation } from 'react-router';

interface Props {
  children: ReactNode;
  resetKey: string;
}
interface State {
  error: unknown;
  resetKey: string;
}

function describe(error: unknown): string {
  if (error instanceof Error) return error.message;
  return String(error);
}

/** The fallback for a page that crashed (seed §8: 'Unexpected Application Error!' with the error text). */
function UnexpectedErrorPage({ error }: { error: unknown }) {
  return (
    <main className="mx-auto flex min-h-screen max-w-2xl flex-col justify-center px-6 py-16">
      <h1 className="text-2xl font-bold text-slate-900">Unexpected Application Error!</h1>
      <pre className="mt-4 overflow-x-auto rounded-lg bg-slate-100 p-4 text-sm whitespace-pre-wrap text-red-800">{describe(error)}</pre>
      <p className="mt-6">
        {/* A full page load: whatever broke is left behind. */}
        <a href="/" className="font-semibold text-navy-700 underline underline-offset-4 hover:text-navy-900">
          Return to Home
        </a>
      </p>
    </main>
  );
}

class Boundary extends Component<Props, State> {
  override state: State = { error: null, resetKey: this.props.resetKey };

  static getDerivedStateFromError(error: unknown): Partial<State> {
    return { error: error ?? new Error('Unknown error') };
  }

  static getDerivedStateFromProps(props: Props, state: State): Partial<State> | null {
    // Navigating away from a crashed page clears the error.
    return props.resetKey !== state.resetKey ? { error: null, resetKey: props.resetKey } : null;
  }

  override componentDidCatch(error: unknown, info: ErrorInfo) {
    console.error('Unexpected application error:', error, info.componentStack);
  }

  override render() {
    return this.state.error ? <UnexpectedErrorPage error={this.state.error} /> : this.props.children;
  }
}

export function RouteErrorBoundary({ children }: { children: ReactNode }) {
  const { pathname } = useLocation();
  return <Boundary resetKey={pathname}>{children}</Boundary>;
}

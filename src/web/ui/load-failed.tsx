import { Button } from './button';

/** A list that could not be loaded: says so, and offers to try again when `onRetry` is given. */
export function LoadFailed({ message, onRetry }: { message: string; onRetry?: () => void }) {
  return (
    <div role="alert" className="mt-4 flex flex-wrap items-center gap-4 rounded-lg border border-red-200 bg-red-50 px-3 py-3 text-sm text-red-800">
      <p className="font-semibold">{message}</p>
      {onRetry ? (
        <Button variant="secondary" onClick={onRetry}>
          Try again
        </Button>
      ) : null}
    </div>
  );
}

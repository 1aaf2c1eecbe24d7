import { createContext, useCallback, useContext, useMemo, type ReactNode } from 'react';
import type { Me } from '../../shared/schemas/me';
import { GENERIC_ERROR, useToast } from '../ui/toast';
import { ApiError } from './api-client';

export interface MeContextValue {
  /** The signed-in person, as /api/me last answered (meQueryOptions). */
  me: Me;
  /** The team this person was removed from while using the app, to say so on its pages. */
  formerTeam: string | null;
  /**
   * Handles the answers that are about the session rather than the page: a
   * 401 `mfa_required` goes to the authenticator set-up, any other 401 to the
   * sign-in page. True when it handled the error.
   */
  handleAccessError: (error: unknown) => boolean;
}

const MeContext = createContext<MeContextValue | null>(null);

export function MeProvider({ me, formerTeam, handleAccessError, children }: MeContextValue & { children: ReactNode }) {
  const value = useMemo(() => ({ me, formerTeam, handleAccessError }), [me, formerTeam, handleAccessError]);
  return <MeContext.Provider value={value}>{children}</MeContext.Provider>;
}

function useMeContext(): MeContextValue {
  const value = useContext(MeContext);
  if (!value) throw new Error('useMe needs a MeProvider (the app shell)');
  return value;
}

/** The signed-in person, for every page inside the app shell. A change is made by invalidating meQueryOptions. */
export function useMe(): Me {
  return useMeContext().me;
}

/** The team this person was removed from while using the app, if any. */
export function useFormerTeam(): string | null {
  return useMeContext().formerTeam;
}

/** A 4xx is an expected answer, told in the server's own words; anything else is the generic failure. */
export function failureDescription(error: unknown): string {
  return isExpected(error) ? error.message : GENERIC_ERROR;
}

const isExpected = (error: unknown): error is ApiError => error instanceof ApiError && error.status >= 400 && error.status < 500;

/**
 * How a signed-in page reports a failed request: session problems are
 * handled by the shell; a 4xx shows the server's own words (an expected
 * answer, so nothing is logged); anything else is logged and shown as the
 * generic failure notice.
 */
export function useFailureNotice() {
  const { handleAccessError } = useMeContext();
  const toast = useToast();
  return useCallback(
    (what: string, error: unknown) => {
      if (handleAccessError(error)) return;
      if (!isExpected(error)) console.error(`${what}:`, error);
      toast({ title: 'Error', description: failureDescription(error), variant: 'destructive' });
    },
    [handleAccessError, toast],
  );
}

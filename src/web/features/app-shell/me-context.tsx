import { createContext, useCallback, useContext, useMemo, type ReactNode } from 'react';
import type { Me } from '../../../shared/schemas/me';
import { ApiError } from '../../lib/api-client';
import { GENERIC_ERROR, useToast } from '../../ui/toast';

export interface MeContextValue {
  /** The signed-in person, as /api/me last answered. */
  me: Me;
  /**
   * Reads /api/me again and shows the answer everywhere (after enrolling an
   * authenticator, creating a team, changing the branding…). Resolves to the
   * fresh Me, or null when it could not be read; never rejects. An ended
   * session goes to the sign-in page.
   */
  refreshMe: () => Promise<Me | null>;
  /**
   * Handles the answers that are about the session rather than the page: a
   * 401 `mfa_required` goes to the authenticator set-up, any other 401 to the
   * sign-in page. True when it handled the error.
   */
  handleAccessError: (error: unknown) => boolean;
}

const MeContext = createContext<MeContextValue | null>(null);

export function MeProvider({ me, refreshMe, handleAccessError, children }: MeContextValue & { children: ReactNode }) {
  const value = useMemo(() => ({ me, refreshMe, handleAccessError }), [me, refreshMe, handleAccessError]);
  return <MeContext.Provider value={value}>{children}</MeContext.Provider>;
}

function useMeContext(): MeContextValue {
  const value = useContext(MeContext);
  if (!value) throw new Error('useMe needs a MeProvider (the app shell)');
  return value;
}

/** The signed-in person and a way to re-read them, for every page inside the app shell. */
export function useMe(): { me: Me; refreshMe: () => Promise<Me | null> } {
  const { me, refreshMe } = useMeContext();
  return { me, refreshMe };
}

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
      const expected = error instanceof ApiError && error.status >= 400 && error.status < 500;
      if (!expected) console.error(`${what}:`, error);
      toast({ title: 'Error', description: expected ? error.message : GENERIC_ERROR, variant: 'destructive' });
    },
    [handleAccessError, toast],
  );
}

/** For loads whose failure the page shows itself: true when the shell took care of it (a session problem). */
export function useAccessErrorHandler() {
  return useMeContext().handleAccessError;
}

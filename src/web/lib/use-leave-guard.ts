import { useCallback, useEffect, useRef, useState } from 'react';
import { useNavigate } from 'react-router';

/** The bits of the Navigation API (Chromium, Firefox 147+, Safari 26.2+) this hook uses; TypeScript's DOM types lack it. */
interface NavigateEventLike extends Event {
  readonly navigationType: 'push' | 'replace' | 'reload' | 'traverse';
  readonly cancelable: boolean;
  readonly destination: { readonly key: string; readonly sameDocument: boolean };
}
interface NavigationLike extends EventTarget {
  traverseTo(key: string): unknown;
}
const navigationApi = (): NavigationLike | undefined => (window as unknown as { navigation?: NavigationLike }).navigation;

/** Where the person was about to go when asked. */
type Leaving = { kind: 'link'; to: string } | { kind: 'history'; key: string };

/** A click that opens a page of this app in this tab, as react-router's links handle it; the address it goes to, or null. */
function appLinkTarget(event: MouseEvent): string | null {
  if (event.defaultPrevented || event.button !== 0 || event.metaKey || event.altKey || event.ctrlKey || event.shiftKey) return null;
  const anchor = event.target instanceof Element ? event.target.closest('a[href]') : null;
  if (!(anchor instanceof HTMLAnchorElement) || anchor.hasAttribute('download') || (anchor.target && anchor.target !== '_self')) return null;
  const url = new URL(anchor.href);
  if (url.origin !== window.location.origin) return null;
  const here = window.location;
  if (url.pathname === here.pathname && url.search === here.search) return null; // the same page, or a fragment of it
  return `${url.pathname}${url.search}${url.hash}`;
}

/**
 * Asks before leaving a page with unsaved changes (`active`). A reload,
 * closing the tab or another site get the browser's own question
 * (`beforeunload`); a link inside the app and Back or Forward (where the
 * browser has the Navigation API) wait for the page's answer: `leaving` is
 * set, and the page shows its question with `stay` and `leave`. The app's
 * declarative router has no blocker of its own (`useBlocker` needs a data
 * router, app/routes.tsx).
 */
export function useLeaveGuard(active: boolean) {
  const navigate = useNavigate();
  const [leaving, setLeaving] = useState<Leaving | null>(null);
  // Set once the person chose to leave, so the listeners let that navigation through (the page unmounts with it).
  const passing = useRef(false);

  useEffect(() => {
    if (!active) return;
    passing.current = false;
    const onBeforeUnload = (event: BeforeUnloadEvent) => {
      if (passing.current) return;
      event.preventDefault();
      // Chromium before 119 asks only when returnValue is set.
      event.returnValue = '';
    };
    // In the capture phase on the document: before react-router's link sees the click.
    const onClick = (event: MouseEvent) => {
      const to = appLinkTarget(event);
      if (to === null || passing.current) return;
      event.preventDefault();
      event.stopPropagation();
      setLeaving({ kind: 'link', to });
    };
    const navigation = navigationApi();
    const onNavigate = (event: Event) => {
      const navigate = event as NavigateEventLike;
      if (passing.current || navigate.navigationType !== 'traverse' || !navigate.cancelable || !navigate.destination.sameDocument) return;
      event.preventDefault();
      setLeaving({ kind: 'history', key: navigate.destination.key });
    };
    window.addEventListener('beforeunload', onBeforeUnload);
    document.addEventListener('click', onClick, true);
    navigation?.addEventListener('navigate', onNavigate);
    return () => {
      window.removeEventListener('beforeunload', onBeforeUnload);
      document.removeEventListener('click', onClick, true);
      navigation?.removeEventListener('navigate', onNavigate);
    };
  }, [active]);

  const stay = useCallback(() => setLeaving(null), []);
  const leave = useCallback(() => {
    if (!leaving) return;
    setLeaving(null);
    passing.current = true;
    if (leaving.kind === 'link') navigate(leaving.to);
    else navigationApi()?.traverseTo(leaving.key);
  }, [leaving, navigate]);

  return { leaving: leaving !== null, stay, leave };
}

import { useEffect, useRef } from 'react';
import { useLocation } from 'react-router';

/*
 * Where a notification's link lands (noticePaths: /app/loans/:id#item-<id>,
 * #comment-<id>). The loan page's own parts know when their target is on the
 * page; these hooks read the target and bring it into view once.
 */
const TARGET = /^#(item|comment)-([0-9a-f-]{36})$/i;

/** The id the URL's fragment points at, of this kind of target, or null. */
export function useHashTarget(kind: 'item' | 'comment'): string | null {
  const { hash } = useLocation();
  const match = TARGET.exec(hash);
  return match && match[1]!.toLowerCase() === kind ? match[2]!.toLowerCase() : null;
}

/** Scrolls to and focuses the element `#<kind>-<id>` the URL points at, once it is on the page (`ready`), then leaves the page to the reader. */
export function useLandOnHashTarget(kind: 'item' | 'comment', ready: boolean): string | null {
  const target = useHashTarget(kind);
  const landed = useRef<string | null>(null);
  useEffect(() => {
    if (!target || !ready || landed.current === target) return;
    const element = document.getElementById(`${kind}-${target}`);
    if (!element) return;
    landed.current = target;
    element.scrollIntoView({ block: 'center' });
    element.focus({ preventScroll: true });
  });
  return target;
}

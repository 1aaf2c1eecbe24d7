import { useEffect } from 'react';
import { publicPages, type PublicPageName } from './paths';
import { usePublicConfig } from './public-config';

/** Keeps the document title right after client-side navigation (the prerendered HTML already has it). */
export function usePageTitle(page: PublicPageName) {
  const { brandName } = usePublicConfig();
  useEffect(() => {
    document.title = publicPages[page].title(brandName);
  }, [page, brandName]);
}

/** "<title> — <brand>" for the pages rendered in the browser only. */
export function useDocumentTitle(title: string) {
  const { brandName } = usePublicConfig();
  useEffect(() => {
    document.title = `${title} — ${brandName}`;
  }, [title, brandName]);
}

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

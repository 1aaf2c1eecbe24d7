import { createContext, useContext, type ReactNode } from 'react';
import { PUBLIC_CONFIG_META, type PublicConfig } from '../../shared/public-config';

const PublicConfigContext = createContext<PublicConfig | null>(null);

export function PublicConfigProvider({ value, children }: { value: PublicConfig; children: ReactNode }) {
  return <PublicConfigContext.Provider value={value}>{children}</PublicConfigContext.Provider>;
}

/** Brand name and contact details, as configured on the server. */
export function usePublicConfig(): PublicConfig {
  const config = useContext(PublicConfigContext);
  if (!config) throw new Error('usePublicConfig needs a PublicConfigProvider');
  return config;
}

/** Reads the configuration the server wrote into the page's <meta> tag. */
export function readPublicConfig(doc: Document): PublicConfig {
  const raw = doc.querySelector(`meta[name="${PUBLIC_CONFIG_META}"]`)?.getAttribute('content');
  if (!raw) throw new Error('The page has no public configuration');
  return JSON.parse(raw) as PublicConfig;
}

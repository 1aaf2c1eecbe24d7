/**
 * The only configuration the browser ever sees. The server writes it into a
 * <meta name="coverly-config"> tag of every page it serves; nothing else from
 * the environment reaches the client.
 */
export interface PublicConfig {
  brandName: string;
  contactEmail: string;
  contactPhone: string;
  contactCity: string;
}

/** The embedded defaults (BRAND_NAME, CONTACT_EMAIL, CONTACT_PHONE, CONTACT_CITY). */
export const DEFAULT_PUBLIC_CONFIG: PublicConfig = {
  brandName: 'Coverly',
  contactEmail: 'hello@coverly.localhost',
  contactPhone: '(555) 010-0199',
  contactCity: 'Austin, TX',
};

export const PUBLIC_CONFIG_META = 'coverly-config';

/**
 * Stand-ins written into pages prerendered at build time; the server swaps
 * them for the configured, HTML-escaped values when it starts.
 */
export const PRERENDER_TOKENS: PublicConfig = {
  brandName: '__COVERLY_BRAND_NAME__',
  contactEmail: '__COVERLY_CONTACT_EMAIL__',
  contactPhone: '__COVERLY_CONTACT_PHONE__',
  contactCity: '__COVERLY_CONTACT_CITY__',
};

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

/**
 * The only configuration the browser ever sees. The server writes it into a
 * <meta name="coverly-config"> tag of every page it serves; nothing else from
 * the environment reaches the client.
 */
export interface PublicConfig {
  brandName: string;
  contactEmail: string;
  contactPhone: string;
  /** `tel:` URI of contactPhone: its digits, with a leading + when it has one. */
  contactPhoneHref: string;
  contactCity: string;
}

/** The browser's configuration from the configured values; the tel: URI is derived, never configured. */
export function publicConfigFrom(values: Omit<PublicConfig, 'contactPhoneHref'>): PublicConfig {
  return { ...values, contactPhoneHref: telHref(values.contactPhone) };
}

/** The embedded defaults (BRAND_NAME, CONTACT_EMAIL, CONTACT_PHONE, CONTACT_CITY). */
export const DEFAULT_PUBLIC_CONFIG: PublicConfig = publicConfigFrom({
  brandName: 'Coverly',
  contactEmail: 'hello@coverly.localhost',
  contactPhone: '(555) 010-0199',
  contactCity: 'Austin, TX',
});

export const PUBLIC_CONFIG_META = 'coverly-config';

/**
 * Stand-ins written into pages prerendered at build time; the server swaps
 * them for the configured, HTML-escaped values when it starts.
 */
export const PRERENDER_TOKENS: PublicConfig = {
  brandName: '__COVERLY_BRAND_NAME__',
  contactEmail: '__COVERLY_CONTACT_EMAIL__',
  contactPhone: '__COVERLY_CONTACT_PHONE__',
  contactPhoneHref: '__COVERLY_CONTACT_PHONE_HREF__',
  contactCity: '__COVERLY_CONTACT_CITY__',
};

/** The `tel:` URI for a phone number as people write it: "+1 (555) 010-0199" → "tel:+15550100199". */
export function telHref(phone: string): string {
  const digits = phone.replace(/[^0-9]/g, '');
  return `tel:${phone.trim().startsWith('+') ? '+' : ''}${digits}`;
}

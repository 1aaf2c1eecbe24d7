/** The link's token as the credential of every request its page makes: a header, never the URL (no log or Referer holds it). */
export const linkHeaders = (token: string) => ({ authorization: `Bearer ${token}` });

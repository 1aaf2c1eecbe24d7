import type { LightMyRequestResponse } from 'fastify';

/** The Cookie header a browser would send back after this response. */
export const cookieFrom = (response: LightMyRequestResponse) =>
  ([] as string[])
    .concat(response.headers['set-cookie'] ?? [])
    .map((cookie) => cookie.split(';')[0])
    .join('; ');

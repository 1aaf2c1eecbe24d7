import type { FastifyReply, FastifyRequest } from 'fastify';

/** The request's headers as Fetch `Headers`, for libraries that speak the Fetch API (better-auth). */
export function toFetchHeaders(request: FastifyRequest): Headers {
  const headers = new Headers();
  for (const [name, value] of Object.entries(request.headers)) {
    if (value !== undefined) headers.set(name, Array.isArray(value) ? value.join(', ') : value);
  }
  return headers;
}

/** Copies every Set-Cookie of a Fetch Response (or headers) onto the reply: a session better-auth opened or extended. */
export function forwardSetCookies(reply: FastifyReply, response: { headers: Headers }) {
  const cookies = response.headers.getSetCookie();
  if (cookies.length > 0) void reply.header('set-cookie', cookies);
}

/** Copies a Fetch Response onto the Fastify reply, every Set-Cookie included. */
export async function sendFetchResponse(reply: FastifyReply, response: Response) {
  void reply.status(response.status);
  response.headers.forEach((value, name) => {
    if (name !== 'set-cookie' && name !== 'content-length') void reply.header(name, value);
  });
  forwardSetCookies(reply, response);
  return reply.send(response.body ? Buffer.from(await response.arrayBuffer()) : null);
}

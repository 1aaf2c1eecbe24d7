import type { FastifyInstance } from 'fastify';
import { AppError } from '../../../shared/errors';

/** No form nests deeper than a few levels; 32 leaves room and keeps every recursive walk of a body safe. */
export const JSON_MAX_DEPTH = 32;

/** How deeply the JSON text nests arrays and objects, counted without parsing (strings skipped). */
export function jsonDepth(source: string): number {
  let depth = 0;
  let deepest = 0;
  let inString = false;
  for (let i = 0; i < source.length; i++) {
    const c = source.charCodeAt(i);
    if (inString) {
      if (c === 0x5c /* \ */) i++;
      else if (c === 0x22 /* " */) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x7b /* { */ || c === 0x5b /* [ */) deepest = Math.max(deepest, ++depth);
    else if (c === 0x7d /* } */ || c === 0x5d /* ] */) depth--;
  }
  return deepest;
}

/**
 * Fastify's own JSON parser (prototype-poisoning checks included), behind a
 * depth limit: a body nested thousands deep is a 400 before anything parses
 * or re-serialises it.
 */
export function registerJsonParser(app: FastifyInstance) {
  const parse = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    const source = body as string;
    if (jsonDepth(source) > JSON_MAX_DEPTH) return done(new AppError('bad_request', `JSON nested deeper than ${JSON_MAX_DEPTH} levels`), undefined);
    parse(request, source, done);
  });
}

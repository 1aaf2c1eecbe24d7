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
 * Where the first key that could reach an object's prototype sits in a JSON
 * text (`__proto__`, or `constructor` holding a `prototype`), as a field path
 * (`visibility.__proto__`, `mentions.2.constructor`), or null when there is
 * none or the text is not JSON. JSON.parse keeps such keys as plain own
 * properties, so walking its result is safe.
 */
export function forbiddenKeyPath(source: string): string | null {
  const walk = (value: unknown, path: string[]): string[] | null => {
    if (typeof value !== 'object' || value === null) return null;
    if (Object.hasOwn(value, '__proto__')) return [...path, '__proto__'];
    const ctor: unknown = Object.hasOwn(value, 'constructor') ? (value as Record<string, unknown>).constructor : undefined;
    if (typeof ctor === 'object' && ctor !== null && Object.hasOwn(ctor, 'prototype')) return [...path, 'constructor'];
    for (const [key, inner] of Object.entries(value)) {
      const found = walk(inner, [...path, key]);
      if (found) return found;
    }
    return null;
  };
  try {
    return walk(JSON.parse(source), [])?.join('.') ?? null;
  } catch {
    return null;
  }
}

/**
 * Fastify's own JSON parser (prototype-poisoning checks included), behind a
 * depth limit: a body nested thousands deep is a 400 before anything parses
 * or re-serialises it. A body with a key that could reach a prototype is a
 * 400 naming where that key is.
 */
export function registerJsonParser(app: FastifyInstance) {
  const parse = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    const source = body as string;
    if (jsonDepth(source) > JSON_MAX_DEPTH) return done(new AppError('bad_request', `JSON nested deeper than ${JSON_MAX_DEPTH} levels`), undefined);
    parse(request, source, (error, value) => {
      // Fastify's parser refuses such a key as "not valid JSON": say which key, and where.
      const field = error ? forbiddenKeyPath(source) : null;
      if (field) {
        return done(
          new AppError('bad_request', `The key ${field} is not accepted in a request body`, [{ field, message: 'This key is not accepted' }]),
          undefined,
        );
      }
      done(error, value);
    });
  });
}

/** One text field of a JSON body the bridge forwards without a schema of its own ('' when absent or not text). */
export const bodyText = (body: unknown, name: string) => {
  const value = body && typeof body === 'object' ? (body as Record<string, unknown>)[name] : undefined;
  return typeof value === 'string' ? value : '';
};

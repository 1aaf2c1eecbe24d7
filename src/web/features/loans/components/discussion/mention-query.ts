/** What the person is typing after an "@" right before the caret: where the "@" is and the text after it; null when they are not. */
export function mentionQueryAt(text: string, caret: number): { start: number; query: string } | null {
  const before = text.slice(0, caret);
  // An "@" at the start or after a space, then up to 40 characters of a name (which may hold spaces) and no line break.
  const match = /(^|\s)@([^@\n]{0,40})$/u.exec(before);
  if (!match) return null;
  const query = match[2] ?? '';
  // A space right after the "@", or after a name (one just picked ends with one), ends the mention.
  if (query.startsWith(' ') || /\s$/u.test(query)) return null;
  return { start: before.length - query.length - 1, query };
}

/** The people whose name matches what was typed after the "@": any word of the name starting with it, the whole name too. */
export function matchingPeople<P extends { name: string }>(people: readonly P[], query: string): P[] {
  const wanted = query.trim().toLowerCase();
  if (wanted === '') return [...people];
  return people.filter((person) => {
    const name = person.name.toLowerCase();
    return name.startsWith(wanted) || name.split(/\s+/).some((word) => word.startsWith(wanted));
  });
}

/** The text with "@query" replaced by "@Name " and the caret after it. */
export function insertMention(text: string, at: { start: number; query: string }, name: string): { text: string; caret: number } {
  const end = at.start + 1 + at.query.length;
  const inserted = `@${name} `;
  const rest = text.slice(end).replace(/^ /, '');
  return { text: `${text.slice(0, at.start)}${inserted}${rest}`, caret: at.start + inserted.length };
}

/** The people still mentioned: those whose "@Name" is still in the text (a deleted mention is no mention). */
export function mentionedIn(text: string, people: ReadonlyMap<string, string>): string[] {
  return [...people].filter(([, name]) => text.includes(`@${name}`)).map(([id]) => id);
}

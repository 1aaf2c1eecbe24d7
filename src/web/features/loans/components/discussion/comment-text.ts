/**
 * A comment's plain text cut into what the page shows: text, links (http and
 * https only, so never `javascript:` or `data:`), and the @names of the
 * people it mentions. The page renders each piece as text or an anchor: no
 * HTML a person typed ever reaches it.
 */
export type CommentToken = { kind: 'text'; text: string } | { kind: 'link'; text: string; href: string } | { kind: 'mention'; text: string };

const URL_START = String.raw`https?:\/\/[^\s<>"'\u0060]+`;
/** Closing punctuation that ends a sentence rather than the address ("see https://x.test/a."). */
const TRAILING = /[.,;:!?'"\])}>]$/;

const escapeRegExp = (value: string) => value.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** The address without the punctuation that follows it in a sentence; a ")" stays when the address opened one. */
function trimTrailing(url: string): string {
  let out = url;
  while (TRAILING.test(out)) {
    const last = out.at(-1);
    if (last === ')' && (out.match(/\(/g) ?? []).length >= (out.match(/\)/g) ?? []).length) break;
    out = out.slice(0, -1);
  }
  return out;
}

function safeHref(candidate: string): string | null {
  try {
    const url = new URL(candidate);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.href : null;
  } catch {
    return null;
  }
}

export function commentTokens(body: string, mentionNames: readonly string[] = []): CommentToken[] {
  const names = [...new Set(mentionNames.filter((name) => name.trim() !== ''))].sort((a, b) => b.length - a.length);
  const alternatives = [URL_START, ...names.map((name) => `@${escapeRegExp(name)}`)];
  const pattern = new RegExp(alternatives.map((alternative) => `(${alternative})`).join('|'), 'giu');
  const tokens: CommentToken[] = [];
  const pushText = (text: string) => {
    if (text === '') return;
    const last = tokens.at(-1);
    if (last?.kind === 'text') last.text += text;
    else tokens.push({ kind: 'text', text });
  };
  let at = 0;
  for (const match of body.matchAll(pattern)) {
    const start = match.index;
    pushText(body.slice(at, start));
    const found = match[0];
    if (match[1] !== undefined) {
      const url = trimTrailing(found);
      const href = safeHref(url);
      if (href) tokens.push({ kind: 'link', text: url, href });
      else pushText(url);
      pushText(found.slice(url.length));
    } else {
      tokens.push({ kind: 'mention', text: found });
    }
    at = start + found.length;
  }
  pushText(body.slice(at));
  return tokens;
}

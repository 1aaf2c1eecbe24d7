import { describe, expect, it } from 'vitest';
import { commentTokens } from './comment-text';

describe('commentTokens', () => {
  it('makes http and https addresses links, leaving the sentence’s punctuation out', () => {
    expect(commentTokens('See https://lender.test/rates?x=1. Or http://a.test/(b) now')).toEqual([
      { kind: 'text', text: 'See ' },
      { kind: 'link', text: 'https://lender.test/rates?x=1', href: 'https://lender.test/rates?x=1' },
      { kind: 'text', text: '. Or ' },
      { kind: 'link', text: 'http://a.test/(b)', href: 'http://a.test/(b)' },
      { kind: 'text', text: ' now' },
    ]);
  });

  it('never makes a link of another scheme or of markup', () => {
    for (const body of [
      'javascript:alert(1)',
      'data:text/html,<b>x</b>',
      '<a href="javascript:alert(1)">x</a>',
      'vbscript:msgbox',
      'JAVASCRIPT://%0aalert(1)',
    ]) {
      const tokens = commentTokens(body);
      expect(
        tokens.filter((token) => token.kind === 'link'),
        body,
      ).toEqual([]);
      expect(tokens.map((token) => token.text).join(''), body).toBe(body);
    }
    // An address with a quote or angle bracket stops there: it cannot carry markup with it.
    expect(commentTokens('https://x.test/"onmouseover="x')).toEqual([
      { kind: 'link', text: 'https://x.test/', href: 'https://x.test/' },
      { kind: 'text', text: '"onmouseover="x' },
    ]);
  });

  it('marks the @names of the people mentioned, the longest name first', () => {
    expect(commentTokens('@Owen Owner and @Owen, look', ['Owen', 'Owen Owner'])).toEqual([
      { kind: 'mention', text: '@Owen Owner' },
      { kind: 'text', text: ' and ' },
      { kind: 'mention', text: '@Owen' },
      { kind: 'text', text: ', look' },
    ]);
    expect(commentTokens('mail @Bea (not a mention)', [])).toEqual([{ kind: 'text', text: 'mail @Bea (not a mention)' }]);
    expect(commentTokens('@A.B+C?', ['A.B+C'])).toEqual([
      { kind: 'mention', text: '@A.B+C' },
      { kind: 'text', text: '?' },
    ]);
  });

  it('keeps every character of the text, in order', () => {
    const body = 'Line one\n\nhttps://a.test/x, @Bea Borrower!\t<script>';
    expect(
      commentTokens(body, ['Bea Borrower'])
        .map((token) => token.text)
        .join(''),
    ).toBe(body);
  });
});

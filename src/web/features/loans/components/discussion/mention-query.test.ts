import { describe, expect, it } from 'vitest';
import { insertMention, matchingPeople, mentionedIn, mentionQueryAt } from './mention-query';

describe('mention queries', () => {
  it('finds the "@name" being typed before the caret, and nothing inside a word or an address', () => {
    expect(mentionQueryAt('Hi @Ow', 6)).toEqual({ start: 3, query: 'Ow' });
    expect(mentionQueryAt('@', 1)).toEqual({ start: 0, query: '' });
    expect(mentionQueryAt('Hi @Owen O', 10)).toEqual({ start: 3, query: 'Owen O' });
    expect(mentionQueryAt('mail bea@example.com', 20)).toBeNull();
    expect(mentionQueryAt('Hi @Ow\nthere', 12)).toBeNull();
    expect(mentionQueryAt('Hi @ there', 10)).toBeNull();
    expect(mentionQueryAt('Hi @Ow and more', 6)).toEqual({ start: 3, query: 'Ow' });
    expect(mentionQueryAt('Hi @Owen Owner ', 15)).toBeNull();
  });

  it('matches any word of a name, and every person for a bare "@"', () => {
    const people = [{ name: 'Owen Owner' }, { name: 'Asha Assistant' }, { name: 'Bea Borrower' }];
    expect(matchingPeople(people, 'ow')).toEqual([{ name: 'Owen Owner' }]);
    expect(matchingPeople(people, 'bor')).toEqual([{ name: 'Bea Borrower' }]);
    expect(matchingPeople(people, 'asha a')).toEqual([{ name: 'Asha Assistant' }]);
    expect(matchingPeople(people, '')).toHaveLength(3);
    expect(matchingPeople(people, 'zz')).toEqual([]);
  });

  it('puts "@Name " in place of what was typed, with the caret after it', () => {
    expect(insertMention('Hi @Ow, ok', { start: 3, query: 'Ow' }, 'Owen Owner')).toEqual({ text: 'Hi @Owen Owner , ok', caret: 15 });
    expect(insertMention('@b', { start: 0, query: 'b' }, 'Bea Borrower')).toEqual({ text: '@Bea Borrower ', caret: 14 });
    expect(insertMention('@b there', { start: 0, query: 'b' }, 'Bea')).toEqual({ text: '@Bea there', caret: 5 });
  });

  it('keeps only the mentions whose name is still in the text', () => {
    const people = new Map([
      ['u1', 'Owen Owner'],
      ['u2', 'Bea Borrower'],
    ]);
    expect(mentionedIn('@Owen Owner please', people)).toEqual(['u1']);
    expect(mentionedIn('nobody', people)).toEqual([]);
  });
});

import { describe, expect, it } from 'vitest';
import type { ActivityView } from '../../../shared/schemas/loans';
import { activityLines } from './activity-text';

const row = (kind: string, data: Record<string, unknown>, name = 'Asha Assistant'): ActivityView => ({
  id: 1,
  kind,
  actor: { name },
  data,
  visibility: 'shared',
  at: '2026-11-24T12:00:00.000Z',
});

describe('activity lines of documents', () => {
  it('says who uploaded which version, and how a review went', () => {
    const item = { itemId: 'x', label: 'Government-issued photo ID', versionNumber: 2 };
    expect(activityLines(row('document.uploaded', { ...item, fileCount: 2 }, 'Nora Investor'))).toEqual([
      'Nora Investor uploaded version 2 of “Government-issued photo ID” (2 files)',
    ]);
    expect(activityLines(row('document.uploaded', { ...item, fileCount: 1 }))).toEqual(['Asha Assistant uploaded version 2 of “Government-issued photo ID”']);
    expect(activityLines(row('document.review_started', item))).toEqual(['Asha Assistant started reviewing version 2 of “Government-issued photo ID”']);
    expect(activityLines(row('document.approved', { ...item, documentDate: '2026-11-02' }))).toEqual([
      'Asha Assistant approved version 2 of “Government-issued photo ID”',
    ]);
    expect(activityLines(row('document.needs_revision', { ...item, reason: 'Send both sides' }))).toEqual([
      'Asha Assistant asked for a new version of “Government-issued photo ID”',
      '“Send both sides”',
    ]);
    expect(activityLines(row('document.viewed', { name: 'id-front.pdf' }))).toEqual(['Asha Assistant viewed id-front.pdf']);
    expect(activityLines(row('document.downloaded', {}))).toEqual(['Asha Assistant downloaded a file']);
  });
});

describe('activity lines of the lender package', () => {
  it('says who downloaded it and how many documents it held', () => {
    expect(activityLines(row('package.downloaded', { documents: 3, files: 6, bytes: 123_456 }))).toEqual([
      'Asha Assistant downloaded the lender package (3 documents)',
    ]);
    expect(activityLines(row('package.downloaded', { documents: 1 }))).toEqual(['Asha Assistant downloaded the lender package (1 document)']);
    expect(activityLines(row('package.downloaded', {}))).toEqual(['Asha Assistant downloaded the lender package (documents)']);
  });
});

describe('activity lines of comments', () => {
  it('says who commented, replied, edited or deleted, never what the comment said', () => {
    expect(activityLines(row('comment.posted', { commentId: 'c', parentId: null, byName: 'Bea' }, 'Bea Borrower'))).toEqual(['Bea Borrower commented']);
    expect(activityLines(row('comment.posted', { commentId: 'c', parentId: null, itemId: 'i' }))).toEqual(['Asha Assistant commented on an item']);
    expect(activityLines(row('comment.posted', { commentId: 'c', parentId: 'p' }))).toEqual(['Asha Assistant replied in the discussion']);
    expect(activityLines(row('comment.edited', { commentId: 'c', previousBody: 'old words' }))).toEqual(['Asha Assistant edited a comment']);
    expect(activityLines(row('comment.deleted', { commentId: 'c' }))).toEqual(['Asha Assistant deleted a comment']);
  });
});

import { describe, expect, it } from 'vitest';
import { LOAN_STAGES, type LoanStage } from '../../../shared/domain/loan-stages';
import { PIPELINE_PAGE_SIZE, PIPELINE_SORTS } from '../../../shared/domain/loan-fields';
import { PipelineQuerySchema } from '../../../shared/schemas/loans';
import {
  boardStages,
  DEFAULT_VIEW,
  isFiltered,
  localToday,
  parsePipelineView,
  sortBy,
  toApiQuery,
  toPipelineSearch,
  updateView,
  type PipelineView,
} from './pipeline-view';

const view = (change: Partial<PipelineView>): PipelineView => ({ ...DEFAULT_VIEW, ...change });

describe('the pipeline view in the address', () => {
  it('knows the API’s sorts and page size', () => {
    // Every sort the page offers, both ways, is a query the API accepts, read back as sent; the page's size is the API's own.
    for (const sort of PIPELINE_SORTS) {
      for (const dir of ['asc', 'desc'] as const) {
        const query = PipelineQuerySchema.parse(toApiQuery(view({ sort, dir }), '2025-03-14'));
        expect(query).toMatchObject({ sort, dir, size: PIPELINE_PAGE_SIZE });
      }
      expect(parsePipelineView(toPipelineSearch(view({ sort, dir: 'asc' })))).toMatchObject({ sort, dir: 'asc' });
    }
  });

  it('is the default view at /app/loans, and writes nothing for it', () => {
    expect(parsePipelineView('')).toEqual(DEFAULT_VIEW);
    expect(parsePipelineView('?')).toEqual(DEFAULT_VIEW);
    expect(toPipelineSearch(DEFAULT_VIEW)).toBe('');
    expect(DEFAULT_VIEW).toMatchObject({ status: 'open', sort: 'last_activity', dir: 'desc', page: 1, layout: 'list' });
  });

  it('reads back every part of a view it wrote', () => {
    const views: PipelineView[] = [
      view({ q: 'Garcia 1204', stages: ['underwriting', 'lead'], assignee: 'user_123', closing: 'this_week', status: 'archived' }),
      view({ sort: 'amount', dir: 'asc', page: 3, layout: 'board' }),
      view({ sort: 'borrower', dir: 'desc' }),
      view({ status: 'closed', stages: ['withdrawn'], assignee: 'none', closing: 'overdue' }),
    ];
    for (const original of views) {
      const search = toPipelineSearch(original);
      const back = parsePipelineView(`?${search}`);
      // The stages come back in the line's order.
      expect(back).toEqual({ ...original, q: original.q.trim(), stages: [...original.stages].sort((a, b) => order(a) - order(b)) });
      expect(toPipelineSearch(back)).toBe(search);
    }
  });

  it('writes short, readable addresses with the defaults left out', () => {
    expect(toPipelineSearch(view({ q: '  Ana  ', stages: ['underwriting', 'lead'] }))).toBe('q=Ana&stage=lead%2Cunderwriting');
    expect(toPipelineSearch(view({ sort: 'amount', dir: 'desc' }))).toBe('sort=amount');
    expect(toPipelineSearch(view({ sort: 'amount', dir: 'asc' }))).toBe('sort=amount&dir=asc');
    expect(toPipelineSearch(view({ sort: 'borrower', dir: 'asc', layout: 'board' }))).toBe('sort=borrower&view=board');
    expect(toPipelineSearch(view({ status: 'funded', page: 2 }))).toBe('status=funded&page=2');
  });

  it('takes the default for anything unknown, malformed or out of bounds, and never throws', () => {
    expect(parsePipelineView('?status=lost&sort=colour&dir=up&page=-2&view=grid&closing=someday&stage=nowhere')).toEqual(DEFAULT_VIEW);
    expect(parsePipelineView('?page=1.5').page).toBe(1);
    expect(parsePipelineView('?page=100001').page).toBe(1);
    expect(parsePipelineView(`?assignee=${'x'.repeat(65)}`).assignee).toBe('');
    expect(parsePipelineView(`?q=${'a'.repeat(300)}`).q).toHaveLength(200);
    expect(parsePipelineView('?stage=lead,bogus&stage=funded').stages).toEqual(['lead', 'funded']);
    expect(parsePipelineView('?%E0%A4%A=1&q=%')).toMatchObject({ q: '%' });
    // A sort without a direction sorts in that column's own first direction.
    expect(parsePipelineView('?sort=closing')).toMatchObject({ sort: 'closing', dir: 'asc' });
    expect(parsePipelineView('?sort=days_in_stage')).toMatchObject({ sort: 'days_in_stage', dir: 'desc' });
  });
});

describe('changing the view', () => {
  it('goes back to page 1 when the loans shown change, not when the layout does', () => {
    const onPage3 = view({ page: 3 });
    expect(updateView(onPage3, { q: 'ana' }).page).toBe(1);
    expect(updateView(onPage3, { stages: ['lead'] }).page).toBe(1);
    expect(updateView(onPage3, { status: 'funded' }).page).toBe(1);
    expect(updateView(onPage3, { layout: 'board' }).page).toBe(3);
    expect(updateView(onPage3, { page: 4 }).page).toBe(4);
  });

  it('sorts a new column in its own first direction, and flips the same column', () => {
    const byAmount = sortBy(DEFAULT_VIEW, 'amount');
    expect(byAmount).toMatchObject({ sort: 'amount', dir: 'desc' });
    expect(sortBy(byAmount, 'amount')).toMatchObject({ sort: 'amount', dir: 'asc' });
    expect(sortBy(byAmount, 'borrower')).toMatchObject({ sort: 'borrower', dir: 'asc' });
    expect(sortBy(view({ page: 5 }), 'stage').page).toBe(1);
  });

  it('tells a filtered view from the whole status', () => {
    expect(isFiltered(DEFAULT_VIEW)).toBe(false);
    expect(isFiltered(view({ status: 'archived', sort: 'amount' }))).toBe(false);
    expect(isFiltered(view({ q: ' ' }))).toBe(false);
    expect(isFiltered(view({ assignee: 'none' }))).toBe(true);
  });
});

describe('the API query of a view', () => {
  it('is a query the server accepts, with today only for a closing window', () => {
    const plain = toApiQuery(DEFAULT_VIEW, '2025-03-14');
    expect(plain).toEqual({ status: 'open', sort: 'last_activity', dir: 'desc' });
    const full = toApiQuery(view({ q: ' Ana ', stages: ['lead', 'underwriting'], assignee: 'none', closing: 'this_month', page: 2 }), '2025-03-14');
    expect(full).toEqual({
      status: 'open',
      sort: 'last_activity',
      dir: 'desc',
      q: 'Ana',
      stage: 'lead,underwriting',
      assignee: 'none',
      closing: 'this_month',
      today: '2025-03-14',
      page: '2',
    });
    for (const query of [plain, full, toApiQuery(DEFAULT_VIEW, '2025-03-14', { stages: ['funded'], size: 20 })]) {
      expect(PipelineQuerySchema.safeParse(query).success).toBe(true);
    }
  });

  it('asks one board column for its own stage and size', () => {
    expect(toApiQuery(view({ page: 4 }), '2025-03-14', { stages: ['lead'], page: 1, size: 20 })).toEqual({
      status: 'open',
      sort: 'last_activity',
      dir: 'desc',
      stage: 'lead',
      size: '20',
    });
  });

  it('writes the browser’s local date', () => {
    expect(localToday(new Date(2025, 0, 5, 23, 59))).toBe('2025-01-05');
  });
});

describe('the board’s columns', () => {
  it('are the main line for open and funded loans, the exits for closed ones, every stage for archived ones', () => {
    expect(boardStages({ status: 'open', stages: [] })).toHaveLength(11);
    expect(boardStages({ status: 'open', stages: [] })).toContain('funded');
    expect(boardStages({ status: 'closed', stages: [] })).toEqual(['withdrawn', 'declined']);
    expect(boardStages({ status: 'archived', stages: [] })).toHaveLength(13);
    expect(boardStages({ status: 'open', stages: ['underwriting', 'lead'] })).toEqual(['lead', 'underwriting']);
  });
});

const order = (stage: LoanStage) => LOAN_STAGES.indexOf(stage);

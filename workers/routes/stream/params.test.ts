import { describe, expect, it } from 'vitest';
import { ApiError } from '../../errors.ts';
import type { Filter } from '../../params/filters.ts';
import { through } from '../../stream/position.ts';
import { MAX_TOPIC_VALUES, resumePosition, topicFilters } from './params.ts';

const filter = (key: string, operator: Filter['operator'], value: unknown): Filter<string, unknown> => ({
  key,
  operator,
  value,
});

describe('resumePosition', () => {
  it('starts at the newest record file without a timestamp', () => {
    expect(resumePosition([])).toBeUndefined();
  });

  it('resumes after a timestamp (gt), from one (gte), or after a log of a timestamp (gte with index=gt)', () => {
    expect(resumePosition([filter('timestamp', 'gt', 10n)])).toEqual(through(10n));
    expect(resumePosition([filter('timestamp', 'gte', 10n)])).toEqual(through(9n));
    expect(resumePosition([filter('timestamp', 'gte', 10n), filter('index', 'gt', 3)])).toEqual({
      timestamp: 10n,
      index: 3,
    });
  });

  it.each([
    ['two timestamps', [filter('timestamp', 'gt', 1n), filter('timestamp', 'gt', 2n)], 'Invalid parameter: timestamp'],
    ['an index alone', [filter('index', 'gt', 1)], 'Invalid parameter: index'],
    ['an index after gt', [filter('timestamp', 'gt', 1n), filter('index', 'gt', 1)], 'Invalid parameter: index'],
    [
      'two indexes',
      [filter('timestamp', 'gte', 1n), filter('index', 'gt', 1), filter('index', 'gt', 2)],
      'Invalid parameter: index',
    ],
  ])('refuses %s', (_label, filters, message) => {
    expect(() => resumePosition(filters)).toThrow(new ApiError(400, message));
  });
});

describe('topicFilters', () => {
  it('groups the values by topic position, in lowercase', () => {
    const filters = [filter('topic0', 'eq', 'AB'), filter('topic2', 'eq', 'cd'), filter('topic0', 'eq', '01')];
    expect(topicFilters(filters)).toEqual([['ab', '01'], [], ['cd'], []]);
  });

  it(`refuses more than ${MAX_TOPIC_VALUES} values in all`, () => {
    const filters = Array.from({ length: MAX_TOPIC_VALUES + 1 }, (_, i) => filter(`topic${i % 4}`, 'eq', 'aa'));
    expect(() => topicFilters(filters)).toThrow(new ApiError(400, `Invalid parameter: topic${MAX_TOPIC_VALUES % 4}`));
  });
});

import { describe, expect, it } from 'vitest';
import { firstDayWith, prereleaseNoticeFindings, workingDaysBetween, type NoticeRecord } from './notice-rule.js';

// 2026-11-19 is a Thursday, 2026-11-20 a Friday, 21/22 the weekend, 23 a Monday.
const notice = (date: string, version = '5.1.0'): NoticeRecord => ({ kind: 'prerelease', version, date, at: `${date}T09:00:00Z` });
const codes = (date: string | undefined, today: string, required = 2): string[] =>
  prereleaseNoticeFindings({ releaseVersion: '5.1.0', notices: date === undefined ? [] : [notice(date)], today, requiredWorkingDays: required }).map((f) => f.code);

describe('working days', () => {
  it('skips the weekend', () => {
    expect(workingDaysBetween('2026-11-19', '2026-11-23')).toBe(2); // Fri, Mon
    expect(workingDaysBetween('2026-11-20', '2026-11-23')).toBe(1); // Mon
    expect(workingDaysBetween('2026-11-20', '2026-11-22')).toBe(0); // Sat, Sun
    expect(workingDaysBetween('2026-11-21', '2026-11-24')).toBe(2); // Saturday notice: Mon, Tue
    expect(workingDaysBetween('2026-11-23', '2026-11-23')).toBe(0);
    expect(workingDaysBetween('2026-11-16', '2026-11-30')).toBe(10);
  });

  it('names the first day a release may follow', () => {
    expect(firstDayWith('2026-11-20', 2)).toBe('2026-11-24');
    expect(firstDayWith('2026-11-19', 2)).toBe('2026-11-23');
    expect(firstDayWith('2026-12-31', 1)).toBe('2027-01-01');
  });
});

describe('pre-release notice rule', () => {
  it('warns when no notice for this version was sent', () => {
    expect(codes(undefined, '2026-11-23')).toEqual(['prerelease-notice-missing']);
    const other = prereleaseNoticeFindings({ releaseVersion: '5.1.0', notices: [notice('2026-11-02', '5.0.9')], today: '2026-11-23', requiredWorkingDays: 2 });
    expect(other.map((f) => f.code)).toEqual(['prerelease-notice-missing']);
    expect(other[0]!.severity).toBe('warning');
  });

  it('a Friday notice is too recent on Monday, enough on Tuesday', () => {
    const monday = prereleaseNoticeFindings({ releaseVersion: '5.1.0', notices: [notice('2026-11-20')], today: '2026-11-23', requiredWorkingDays: 2 });
    expect(monday.map((f) => f.code)).toEqual(['prerelease-notice-too-recent']);
    expect(monday[0]!.message).toContain('1 working day ago');
    expect(monday[0]!.fix).toContain('2026-11-24');
    expect(codes('2026-11-20', '2026-11-24')).toEqual([]);
  });

  it('a Thursday notice is enough on Monday; the number of days is configurable', () => {
    expect(codes('2026-11-19', '2026-11-23')).toEqual([]);
    expect(codes('2026-11-19', '2026-11-23', 3)).toEqual(['prerelease-notice-too-recent']);
    expect(codes('2026-11-23', '2026-11-23', 1)).toEqual(['prerelease-notice-too-recent']);
  });
});

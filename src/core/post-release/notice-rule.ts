import type { Finding } from '../findings.js';

/**
 * The pre-release notice rule (seed part 4.8 step 4): a notice to the developer list "a couple of
 * working days" before any non-snapshot release. Pure: dates come in as calendar days
 * (`YYYY-MM-DD`, the maintainer's local date), so tests can walk across a weekend.
 */
const isoDay = /^(\d{4})-(\d{2})-(\d{2})$/;

function dayNumber(date: string): number {
  const m = isoDay.exec(date);
  if (m === null) throw new Error(`not a calendar day: ${date}`);
  return Math.floor(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])) / 86_400_000);
}

/**
 * Working days (Monday to Friday) after `from` up to and including `to`: a notice sent on a
 * Thursday has 2 working days on the next Monday (Friday, Monday); one sent on a Friday, 1.
 */
export function workingDaysBetween(from: string, to: string): number {
  const start = dayNumber(from);
  const end = dayNumber(to);
  let count = 0;
  for (let d = start + 1; d <= end; d++) {
    // Day 0 (1970-01-01) was a Thursday: (d + 4) % 7 is 0 on Sundays, 6 on Saturdays.
    const weekday = (d + 4) % 7;
    if (weekday !== 0 && weekday !== 6) count++;
  }
  return count;
}

export interface NoticeRecord {
  kind: 'prerelease' | 'announce';
  version: string;
  /** Calendar day the notice went out (local date). */
  date: string;
  at: string;
  /**
   * sent: delivered over SMTP to `to` (one record per recipient); written: an .eml for the
   * person's own client (its date still counts for the notice rule). Absent in older journals.
   */
  delivery?: 'sent' | 'written';
  /** The list (address) a sent mail went to. */
  to?: string;
  /** The mail's Message-ID, so a rerun that completes a half-sent notice sends the same mail. */
  messageId?: string;
}

export interface NoticeRuleInput {
  /** The version about to be released (X.Y.Z). */
  releaseVersion: string;
  notices: readonly NoticeRecord[];
  today: string;
  requiredWorkingDays: number;
}

/** `prerelease-notice-missing` / `prerelease-notice-too-recent` (warnings, group repository). */
export function prereleaseNoticeFindings(input: NoticeRuleInput): Finding[] {
  const { releaseVersion, today, requiredWorkingDays: required } = input;
  const sent = input.notices.filter((n) => n.kind === 'prerelease' && n.version === releaseVersion).sort((a, b) => a.date.localeCompare(b.date))[0];
  const send = `relctl notify prerelease --release-version ${releaseVersion} --send`;
  if (sent === undefined) {
    return [
      {
        code: 'prerelease-notice-missing',
        severity: 'warning',
        message: `No pre-release notice for ${releaseVersion} is recorded; the developer list expects one ${required} working day${required === 1 ? '' : 's'} before a release.`,
        fix: `Send it now (${send}, or --output DIR to send from your own client) and release ${required} working day${required === 1 ? '' : 's'} later.`,
      },
    ];
  }
  const elapsed = workingDaysBetween(sent.date, today);
  if (elapsed >= required) return [];
  return [
    {
      code: 'prerelease-notice-too-recent',
      severity: 'warning',
      message: `The pre-release notice for ${releaseVersion} went out on ${sent.date}, ${elapsed} working day${elapsed === 1 ? '' : 's'} ago; the rule is ${required} (weekends do not count).`,
      fix: `Release on or after ${firstDayWith(sent.date, required)}, or go ahead if the developer list agreed to a shorter notice.`,
    },
  ];
}

/** The first calendar day on which `required` working days have passed since `from`. */
export function firstDayWith(from: string, required: number): string {
  let d = dayNumber(from);
  let count = 0;
  while (count < required) {
    d++;
    const weekday = (d + 4) % 7;
    if (weekday !== 0 && weekday !== 6) count++;
  }
  return new Date(d * 86_400_000).toISOString().slice(0, 10);
}

/** The local calendar day of `date` (what "two working days" means to the maintainer). */
export function localDay(date: Date): string {
  const pad = (n: number): string => String(n).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
}

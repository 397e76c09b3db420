import { describe, expect, it } from 'vitest';
import type { Finding } from '../core/findings.js';
import type { ProjectFacts } from './facts.js';
import { oneFindingPerCause } from './same-cause.js';

const finding = (code: string, subject?: string): Finding => ({ code, severity: 'error', message: code, fix: 'fix', ...(subject === undefined ? {} : { subject }) });
const facts = (unsetEnv: string[]): ProjectFacts =>
  ({ maven: { settings: { servers: [{ id: 'central', username: '${env.U}', password: '${env.P}', unsetEnv }] } } }) as unknown as ProjectFacts;

describe('one finding per cause', () => {
  it('drops missing-credentials when server-id-mismatch already names the unset variables of the same <server>', () => {
    const both = [finding('server-id-mismatch', 'central'), finding('missing-credentials')];
    expect(oneFindingPerCause(both, facts(['U', 'P'])).map((f) => f.code)).toEqual(['server-id-mismatch']);
  });

  it('keeps both when the causes differ (no <server> variables unset, or server-id-mismatch not reported)', () => {
    const both = [finding('server-id-mismatch', 'central'), finding('missing-credentials')];
    expect(oneFindingPerCause(both, facts([])).map((f) => f.code)).toEqual(['server-id-mismatch', 'missing-credentials']);
    expect(oneFindingPerCause([finding('missing-credentials')], facts(['U'])).map((f) => f.code)).toEqual(['missing-credentials']);
  });
});

import { prereleaseNoticeFindings } from '../core/post-release/notice-rule.js';
import { parseVersion, formatVersion, releaseVersionOf } from '../core/version.js';
import type { Check } from './types.js';

/**
 * A non-snapshot release is announced on the developer list a couple of working days before
 * (seed part 4.8 step 4). Applies when the project configures `mail` (it has lists to notify);
 * the notice's date comes from the journal, where `relctl notify prerelease` records it.
 */
export const repoPrereleaseNotice: Check = {
  id: 'repo-prerelease-notice',
  codes: ['prerelease-notice-missing', 'prerelease-notice-too-recent'],
  title: 'the pre-release notice went out a couple of working days ago',
  appliesTo: (facts) => facts.notice !== undefined && facts.release?.currentVersion !== undefined && parseVersion(facts.release.currentVersion) !== undefined,
  run(facts) {
    const notice = facts.notice!;
    const releaseVersion = formatVersion(releaseVersionOf(parseVersion(facts.release!.currentVersion!)!));
    return prereleaseNoticeFindings({ releaseVersion, notices: notice.notices, today: notice.today, requiredWorkingDays: notice.requiredWorkingDays });
  },
};

/**
 * Today, for the date-based rules (the pre-release notice's working days) and the fleet report's
 * header. RELCTL_TEST_NOW (an ISO date) lets end-to-end tests stand on a chosen day; nothing else reads it.
 */
export function clockNow(env: NodeJS.ProcessEnv): Date {
  const fixed = env.RELCTL_TEST_NOW;
  return fixed !== undefined && fixed !== '' && !Number.isNaN(Date.parse(fixed)) ? new Date(fixed) : new Date();
}

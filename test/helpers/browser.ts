import { chromium, type Browser } from 'playwright-core';

/** Debian's headless Chromium (scripts/system-deps.sh --browser); no browser is ever downloaded. */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: '/usr/bin/chromium',
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run'],
  });
}

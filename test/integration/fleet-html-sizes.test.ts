import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fleetHtml } from '../../src/fleet/render/fleet-html.js';
import { launchChromium } from '../helpers/browser.js';
import { largeFleet, uportalFleet } from '../helpers/fleet-report.js';

/**
 * The HTML report on a desktop, on a phone (390 px, an iPhone's width) and on paper (DESIGN §13:
 * "the page fits a phone and prints"; issue 43 item 5): no text drawn smaller than 10 px (the SVG's
 * text as drawn, after its scaling), nothing wider than the screen but what scrolls in its own box,
 * repository names not squeezed letter by letter, and a print stylesheet.
 */
interface Measured {
  pageWidth: number;
  smallest: { size: number; text: string };
  firstColumn: number;
  print: boolean;
}

let browser: Browser;
beforeAll(async () => {
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
});

async function measure(html: string, width: number): Promise<Measured> {
  const context = await browser.newContext({ viewport: { width, height: 844 } });
  await context.route('**/*', (route) => route.abort());
  const page = await context.newPage();
  await page.setContent(html, { waitUntil: 'load' });
  // Runs in the page (the project's tsconfig has no DOM library: the page's globals are untyped).
  const measured = (await page.evaluate(`(() => {
    let smallest = { size: Infinity, text: '' };
    const note = (size, text) => { if (text.trim() !== '' && size < smallest.size) smallest = { size, text: text.trim().slice(0, 40) }; };
    for (const el of document.body.querySelectorAll('*')) {
      const own = [...el.childNodes].filter((n) => n.nodeType === 3).map((n) => n.textContent).join('');
      if (own.trim() === '' || el.closest('svg') !== null) continue;
      note(parseFloat(getComputedStyle(el).fontSize), own);
    }
    for (const svg of document.querySelectorAll('svg')) {
      const scale = svg.getBoundingClientRect().width / svg.viewBox.baseVal.width;
      for (const t of svg.querySelectorAll('text')) note(parseFloat(getComputedStyle(t).fontSize) * scale, t.textContent);
    }
    const print = [...document.styleSheets].some((s) => [...s.cssRules].some((r) => r.media !== undefined && r.media.mediaText === 'print'));
    const first = document.querySelector('table tbody td');
    return { pageWidth: document.documentElement.scrollWidth, smallest, firstColumn: first === null ? 0 : first.getBoundingClientRect().width, print };
  })()`)) as Measured;
  await context.close();
  return measured;
}

describe('fleet --format html at desktop and phone sizes', () => {
  it.each([
    ['the uPortal fleet', 1280],
    ['the uPortal fleet', 390],
    ['20 repositories', 1280],
    ['20 repositories', 390],
  ])('%s at %i px: no text under 10 px, nothing wider than the screen, names readable, a print stylesheet', async (which, width) => {
    const report = which === 'the uPortal fleet' ? uportalFleet() : largeFleet(20);
    const m = await measure(fleetHtml(report, { date: '2026-12-06', version: '9.9.9' }), width);
    expect(m.smallest.size, `"${m.smallest.text}" is drawn at ${m.smallest.size.toFixed(1)} px`).toBeGreaterThanOrEqual(10);
    expect(m.pageWidth).toBeLessThanOrEqual(width);
    expect(m.firstColumn).toBeGreaterThanOrEqual(150);
    expect(m.print).toBe(true);
  });
});

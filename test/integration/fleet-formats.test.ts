import { mkdir, readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fleetHtml } from '../../src/fleet/render/fleet-html.js';
import { fleetJunit } from '../../src/fleet/render/fleet-junit.js';
import { fleetVerdicts, type FleetReport } from '../../src/fleet/report-types.js';
import { launchChromium } from '../helpers/browser.js';
import { repoRoot } from '../helpers/cli.js';
import { hostile, hostileFleet, largeFleet, uportalFleet } from '../helpers/fleet-report.js';
import { fleetSchemaErrors, junitSchemaCheck } from '../helpers/report-validators.js';
import { tempDir, type TempDir } from '../helpers/temp.js';

/**
 * The fleet report's formats checked by their validators (DESIGN §13): the JSON document against
 * schema/fleet.schema.json, JUnit against Jenkins' XSD (xmllint), and the HTML page in headless
 * Chromium (no request leaves it, the graph has a node per repository, no value becomes markup).
 */
/** The page's globals these checks read (the project's tsconfig has no DOM library). */
interface PageGlobals {
  document: { documentElement: { scrollWidth: number } };
  getComputedStyle(element: unknown): { backgroundColor: string };
}

let tmp: TempDir;
beforeAll(async () => {
  tmp = await tempDir('relctl-fleet-formats-');
});
afterAll(async () => {
  await tmp?.[Symbol.asyncDispose]();
});

describe('schema/fleet.schema.json', () => {
  it.each([
    ['the uPortal fleet', uportalFleet()],
    ['hostile values', hostileFleet()],
    ['20 repositories', largeFleet(20)],
  ])('describes a report: %s', async (_name, report) => {
    expect(await fleetSchemaErrors(JSON.parse(JSON.stringify(report)))).toEqual([]);
  });

  const broken: [string, (r: FleetReport) => unknown][] = [
    ['an unknown verdict', (r) => ((r.repositories[0] as { verdict: string }).verdict = 'green')],
    ['an unknown build', (r) => ((r.repositories[0] as { build: string }).build = 'ant')],
    ['a field the contract does not have', (r) => Object.assign(r.repositories[0]!, { colour: 'red' })],
    ['a finding field the contract does not have', (r) => Object.assign(r.repositories[1]!.findings[0]!, { fixedIn: 'x' })],
    ['a missing verdict count', (r) => delete (r.summary.verdicts as Partial<FleetReport['summary']['verdicts']>).error],
    ['a missing lastRelease (null is required, not absent)', (r) => delete (r.repositories[2] as Partial<FleetReport['repositories'][number]>).lastRelease],
    ['published as a string', (r) => ((r.repositories[0]!.lastRelease as { published: unknown }).published = 'yes')],
    ['no summary', (r) => delete (r as Partial<FleetReport>).summary],
  ];
  it.each(broken)('rejects %s', async (_name, breakIt) => {
    const report = uportalFleet();
    breakIt(report);
    expect(await fleetSchemaErrors(JSON.parse(JSON.stringify(report)))).not.toEqual([]);
  });

  it('names the verdicts the code has, in its order', async () => {
    const schema = JSON.parse(await readFile(path.join(repoRoot, 'schema/fleet.schema.json'), 'utf8')) as { $defs: { verdict: { enum: string[] }; summary: { properties: { verdicts: { required: string[] } } } } };
    expect(schema.$defs.verdict.enum).toEqual(fleetVerdicts);
    expect(schema.$defs.summary.properties.verdicts.required).toEqual(fleetVerdicts);
  });
});

describe('fleetJunit against junit-10.xsd', () => {
  it.each([
    ['uportal', uportalFleet()],
    ['hostile', hostileFleet()],
  ])('validates: %s', async (name, report) => {
    const check = await junitSchemaCheck(fleetJunit(report), path.join(tmp.path, `${name}.xml`));
    expect(check.output).toContain('validates');
    expect(check.exitCode).toBe(0);
  });

  it('and the validator rejects a test case without a name', async () => {
    const xml = fleetJunit(uportalFleet()).replace(/ name="uPortal-Project\/uPortal"/, '');
    expect((await junitSchemaCheck(xml, path.join(tmp.path, 'broken.xml'))).exitCode).not.toBe(0);
  });
});

describe('fleetHtml in headless Chromium', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
  });

  /** The page at 1280 pixels, every request it makes (each one refused), and every dialog it opens. */
  async function open(html: string): Promise<{ page: Page; requests: Set<string>; dialogs: string[]; close: () => Promise<void> }> {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const requests = new Set<string>();
    const dialogs: string[] = [];
    await context.route('**/*', (route) => {
      requests.add(route.request().url());
      return route.abort();
    });
    const page = await context.newPage();
    page.on('request', (r) => requests.add(r.url()));
    page.on('dialog', (d) => {
      dialogs.push(d.message());
      void d.dismiss();
    });
    await page.setContent(html, { waitUntil: 'load' });
    return { page, requests, dialogs, close: () => context.close() };
  }

  it('sees a request when a page makes one (the listener works)', async () => {
    const { requests, close } = await open('<!DOCTYPE html><p>x</p><img src="http://127.0.0.1:9/pixel.png">');
    expect([...requests]).toEqual(['http://127.0.0.1:9/pixel.png']);
    await close();
  });

  it('shows the hostile fleet as text: no request, no script, a node and a row per repository, verdicts in words', async () => {
    const report = hostileFleet();
    const { page, requests, dialogs, close } = await open(fleetHtml(report));
    expect([...requests].filter((u) => !u.startsWith('data:'))).toEqual([]);
    expect(dialogs).toEqual([]);
    expect(await page.locator('script, img, iframe, object, embed, link, [onerror], [onload], [src]').count()).toBe(0);

    const nodes = page.locator('svg.graph g.node');
    expect(await nodes.count()).toBe(report.repositories.length);
    for (const [i, r] of report.repositories.entries()) {
      const node = nodes.nth(i);
      await expect(node.getAttribute('data-verdict')).resolves.toBe(r.verdict);
      await expect(node.locator('text.word').textContent()).resolves.toBe(r.verdict);
      expect(await node.locator('text.word').isVisible()).toBe(true);
    }
    await expect(nodes.nth(5).getAttribute('data-repository')).resolves.toBe(hostile.name);

    const rows = page.locator('table tbody tr');
    expect(await rows.count()).toBe(report.repositories.length);
    await expect(rows.nth(5).locator('td').first().textContent()).resolves.toBe(hostile.name);
    await expect(rows.nth(5).locator('td .verdict').textContent()).resolves.toBe('blocked');
    // The javascript: pull request is no link; the real one is.
    await expect(rows.nth(5).locator('td').last().textContent()).resolves.toBe('#3 open');
    // Links: each repository's page (an http(s) clone URL without .git) and the real pull request.
    const links = await page.locator('a').evaluateAll((as) => as.map((a) => a.href as string));
    expect(links).toContain('https://github.com/uPortal-Project/uportal-parent/pull/42');
    expect(links).toContain('https://git.example.invalid/evil');
    expect(links.every((l) => l.startsWith('https://'))).toBe(true);
    await expect(page.locator('body').textContent()).resolves.toContain('Developer "Jane Doe ::error::x" has no email <script>alert(1)</script> & <b>|</b>');

    // Colour as well as words.
    const background = (verdict: string): Promise<string> => page.locator(`.summary + .counts .v-${verdict}`).evaluate((e) => (globalThis as unknown as PageGlobals).getComputedStyle(e).backgroundColor);
    expect(new Set(await Promise.all(fleetVerdicts.map(background))).size).toBe(fleetVerdicts.length);

    const shot = path.join(tmp.path, 'hostile.png');
    await page.screenshot({ path: shot, fullPage: true });
    const png = await readFile(shot);
    expect(png.subarray(0, 8)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
    expect(png.length).toBeGreaterThan(20_000);
    await close();
  });

  it('fits 20 repositories in 1280 pixels: no overlapping nodes, parents above children, no horizontal scrolling', async () => {
    const report = largeFleet(20);
    const { page, requests, close } = await open(fleetHtml(report));
    expect([...requests]).toEqual([]);
    const boxes = await page.locator('svg.graph g.node rect').evaluateAll((rects) =>
      rects.map((r) => {
        const b = r.getBoundingClientRect();
        return { name: r.parentElement!.getAttribute('data-repository')!, left: b.left, top: b.top, right: b.right, bottom: b.bottom };
      }),
    );
    expect(boxes).toHaveLength(20);
    for (const [i, a] of boxes.entries()) {
      expect(a.left).toBeGreaterThanOrEqual(0);
      expect(a.right).toBeLessThanOrEqual(1280);
      expect(a.right - a.left).toBeGreaterThan(150);
      for (const b of boxes.slice(i + 1)) {
        const apart = a.right <= b.left || b.right <= a.left || a.bottom <= b.top || b.bottom <= a.top;
        expect(apart, `${a.name} and ${b.name} overlap`).toBe(true);
      }
    }
    const box = new Map(boxes.map((b) => [b.name, b]));
    for (const e of report.summary.edges) expect(box.get(e.from)!.top).toBeGreaterThan(box.get(e.to)!.bottom);
    expect(await page.evaluate(() => (globalThis as unknown as PageGlobals).document.documentElement.scrollWidth)).toBeLessThanOrEqual(1280);
    await close();
  });

  it('screenshots the uPortal fleet (FLEET_REPORT_SCREENSHOT=docs/fleet-report.png keeps it for the README)', async () => {
    const { page, requests, close } = await open(fleetHtml(uportalFleet()));
    expect([...requests]).toEqual([]);
    const keep = process.env.FLEET_REPORT_SCREENSHOT;
    const shot = keep === undefined ? path.join(tmp.path, 'fleet-report.png') : path.resolve(repoRoot, keep);
    await mkdir(path.dirname(shot), { recursive: true });
    // The first screen (summary, graph, table): small enough for the README.
    await page.screenshot({ path: shot });
    expect((await stat(shot)).size).toBeGreaterThan(20_000);
    await close();
  });
});

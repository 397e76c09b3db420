import { stat } from 'node:fs/promises';
import path from 'node:path';
import { chromium, type Browser } from 'playwright-core';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { startSandbox, type RunningSandbox } from '../../src/sandbox/server.js';
import { createTestKey, type TestKey } from '../helpers/gpg.js';
import { tempDir, type TempDir } from '../helpers/temp.js';
import { manualUpload, publishKeyConfirmed, publisher, putAll, signedComponent } from './sandbox-fixture.js';

/** The portal's Deployments page in headless Chromium: Publish one deployment, Drop another. */
let tmp: TempDir;
let key: TestKey;
let sandbox: RunningSandbox;
let browser: Browser;

beforeAll(async () => {
  tmp = await tempDir('relctl-sbpage-');
  key = await createTestKey();
  sandbox = await startSandbox();
  await publishKeyConfirmed(sandbox, key);
  browser = await chromium.launch({
    executablePath: '/usr/bin/chromium',
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run'],
  });
});
afterAll(async () => {
  await browser?.close();
  await sandbox?.close();
  await key?.cleanup();
  await tmp?.[Symbol.asyncDispose]();
});

async function validated(namespace: string, artifactId: string): Promise<string> {
  expect(await putAll(sandbox, await signedComponent(key, namespace, artifactId, '1.2.0'))).toEqual([]);
  const reply = await manualUpload(sandbox, namespace);
  expect(reply.status, reply.text).toBe(200);
  return reply.json().deploymentId as string;
}

test('a person publishes one deployment and drops another by clicking', async () => {
  // Three namespaces of their own (the default user holds each groupId's reverse domain).
  const toPublish = await validated('com.pageone', 'alpha');
  const toDrop = await validated('com.pagetwo', 'beta');
  const files = await signedComponent(key, 'com.pagethree', 'gamma', '1.2.0');
  files.delete('com/pagethree/gamma/1.2.0/gamma-1.2.0-sources.jar');
  expect(await putAll(sandbox, files)).toEqual([]);
  const failedId = (await manualUpload(sandbox, 'com.pagethree')).json().deploymentId as string;

  const context = await browser.newContext({ httpCredentials: { username: 'sandbox', password: 'sandbox' }, viewport: { width: 1200, height: 900 } });
  const page = await context.newPage();
  await page.goto(`${sandbox.urls.portalUrl}/publishing/deployments`);
  const article = (id: string): ReturnType<typeof page.locator> => page.locator(`article[data-deployment="${id}"]`);

  // What a reviewer needs: state, components, expected artifacts, errors.
  await expect(article(toPublish).locator('.state').textContent()).resolves.toBe('VALIDATED');
  await expect(article(toPublish).textContent()).resolves.toContain('alpha-1.2.0-javadoc.jar');
  await expect(article(toPublish).textContent()).resolves.toContain('pkg:maven/com.pageone/alpha@1.2.0');
  await expect(article(failedId).locator('.err').allTextContents()).resolves.toEqual(['Sources must be provided but not found in entries']);
  expect(await article(failedId).locator('button[data-action="publish"]').count()).toBe(0);

  const shot = path.join(process.env.SANDBOX_SCREENSHOT_DIR ?? tmp.path, 'deployments.png');
  await page.screenshot({ path: shot, fullPage: true });
  expect((await stat(shot)).size).toBeGreaterThan(10_000);

  await Promise.all([page.waitForEvent('load'), article(toPublish).locator('button[data-action="publish"]').click()]);
  await page.locator(`article[data-deployment="${toPublish}"][data-state="PUBLISHED"]`).waitFor();
  expect(await article(toPublish).locator('button').count()).toBe(0);

  await Promise.all([page.waitForEvent('load'), article(toDrop).locator('button[data-action="drop"]').click()]);
  await article(toDrop).waitFor({ state: 'detached' });

  expect((await publisher(sandbox, 'POST', `status?id=${toPublish}`)).json().deploymentState).toBe('PUBLISHED');
  expect((await publisher(sandbox, 'POST', `status?id=${toDrop}`)).status).toBe(404);
  const jar = await fetch(`${sandbox.urls.publicRepoUrl}/com/pageone/alpha/1.2.0/alpha-1.2.0.jar`);
  expect(await jar.text()).toBe('jar of alpha');
  await context.close();
});

test('without credentials the page asks for them (401 with a Basic challenge)', async () => {
  const r = await fetch(`${sandbox.urls.portalUrl}/publishing/deployments`);
  expect(r.status).toBe(401);
  expect(r.headers.get('www-authenticate')).toBe('Basic realm="portal"');
});

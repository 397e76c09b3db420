/**
 * Runs preflight --fix rules on a real copy of a project, the way the command will: facts and
 * findings from preflight's own gatherer and checks, files read as the rules see them (decoded,
 * BOM removed), edits applied and written back (BOM and bytes outside the edits kept).
 */
import { readFileSync } from 'node:fs';
import { mkdtemp, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { checks } from '../../src/checks/index.js';
import { gatherFacts } from '../../src/checks/gather-facts.js';
import { runChecks } from '../../src/checks/run-checks.js';
import type { FixContext, FixOptions, FixRule } from '../../src/checks/fixes/types.js';
import { applyEdits } from '../../src/core/fix/apply.js';
import type { FixPlan, FixSource } from '../../src/core/fix/types.js';
import type { CommandContext } from '../../src/io/command-context.js';
import { loadConfig } from '../../src/io/config-file.js';
import { Output } from '../../src/ui/output.js';
import { writeTree } from './temp.js';

/** An empty HOME (no Gradle or Maven user files) from the real-world corpus. */
export const emptyHomeDir = path.resolve(import.meta.dirname, '../fixtures/real-world/empty-home');

const bom = '\ufeff';

/** Reads project files as UTF-8 (the fixtures this helper is used on are UTF-8 or ASCII). */
export function projectReader(dir: string): (file: string) => FixSource | undefined {
  return (file) => {
    try {
      const text = readFileSync(path.resolve(dir, file), 'utf8');
      return { file, text: text.startsWith(bom) ? text.slice(1) : text };
    } catch {
      return undefined;
    }
  };
}

export const defaultFixOptions: FixOptions = { fixMetadata: false, usernameVariable: 'CENTRAL_TOKEN_USERNAME', passwordVariable: 'CENTRAL_TOKEN_PASSWORD' };

/** Offline preflight's facts and findings on `dir`, in process. */
export async function fixContextFor(dir: string, env: Record<string, string>, options: Partial<FixOptions> = {}): Promise<FixContext> {
  const sink = new Writable({ write: (_chunk, _enc, done) => done() });
  const out = new Output({ json: true, verbose: false, color: false, interactive: false, stdout: sink, stderr: sink });
  const fullEnv = { ...process.env, ...env } as NodeJS.ProcessEnv;
  for (const k of Object.keys(fullEnv)) if (k.startsWith('RELCTL_')) delete fullEnv[k];
  const { config } = await loadConfig(dir, {}, fullEnv);
  const ctx: CommandContext = { cwd: dir, out, config, configSources: {}, env: fullEnv, canPrompt: false, ci: true, signal: new AbortController().signal };
  const facts = await gatherFacts(ctx, { offline: true });
  return { facts, findings: runChecks(checks, facts, { offline: true }), read: projectReader(dir), options: { ...defaultFixOptions, ...options } };
}

/** Applies a plan's edits to the files under `dir` (a BOM the file had is written back). */
export async function writePlan(dir: string, plan: FixPlan): Promise<string[]> {
  const files = [...new Set(plan.edits.map((e) => e.file))];
  for (const file of files) {
    const raw = readFileSync(path.resolve(dir, file), 'utf8');
    const had = raw.startsWith(bom);
    const text = applyEdits(had ? raw.slice(1) : raw, plan.edits.filter((e) => e.file === file));
    await writeFile(path.resolve(dir, file), had ? bom + text : text);
  }
  return files;
}

/** Plans every rule given, in order. */
export function planAll(rules: readonly FixRule[], ctx: FixContext): FixPlan {
  const out: FixPlan = { edits: [], declined: [] };
  for (const r of rules) {
    const p = r.plan(ctx);
    out.edits.push(...p.edits);
    out.declined.push(...p.declined);
  }
  return out;
}

/** Writes `files` into a fresh folder under `parent` and returns preflight's context on it (empty HOME). */
export async function scratchContext(parent: string, files: Record<string, string>, options: Partial<FixOptions> = {}): Promise<{ dir: string; ctx: FixContext }> {
  const dir = await mkdtemp(path.join(parent, 'p-'));
  await writeTree(dir, files);
  return { dir, ctx: await fixContextFor(dir, { HOME: emptyHomeDir }, options) };
}

/** The texts of the files a plan edits, after its edits. */
export function afterPlan(ctx: FixContext, plan: FixPlan): Record<string, string> {
  const out: Record<string, string> = {};
  for (const file of new Set(plan.edits.map((e) => e.file))) out[file] = applyEdits(ctx.read(file)!.text, plan.edits.filter((e) => e.file === file));
  return out;
}

/** A scratch parent folder for scratchContext; remove it when done. */
export function scratchParent(): Promise<string> {
  return mkdtemp(path.join(os.tmpdir(), 'relctl-fix-'));
}

import path from 'node:path';
import type { Finding } from '../../core/findings.js';
import type { RawPom } from '../../core/pom/index.js';
import { relativeToRoot, resolveIn, type LoadedPom, type PomLoader } from './load.js';

type Report = (f: Finding) => void;

/** `groupId:artifactId` as written (groupId falls back to the parent's). */
export function rawCoords(pom: RawPom): string {
  return `${pom.groupId?.value ?? pom.parent?.groupId ?? '?'}:${pom.artifactId?.value ?? '?'}`;
}

/** A POM reached through `<modules>`, with the aggregators above it and the modules it walks. */
interface ReactorNode {
  loaded: LoadedPom;
  aggregators: readonly string[];
  below: ReactorNode[];
}

/**
 * Walks `<modules>` from the top-level POM, breadth first: all modules of an aggregator are
 * claimed before any of them is walked. Each POM is visited once (a module listed twice is walked
 * once, under the aggregator nearest the top); a module that points back at one of its
 * aggregators, or outside the project, is reported instead of followed. Returns the POMs depth
 * first, each aggregator before its modules. Synchronous: the reads are (see io/stat-of.ts).
 */
export function walkReactor(root: string, loader: PomLoader, report: Report): LoadedPom[] {
  const visited = new Set<string>();
  const topAbs = path.join(root, 'pom.xml');
  visited.add(topAbs);
  const top: ReactorNode = { loaded: loader.load(topAbs, 'project'), aggregators: [], below: [] };
  const p = top.loaded.problem;
  if (top.loaded.link === undefined && p !== undefined) {
    const finding: Finding = {
      code: 'xml-malformed',
      severity: 'error',
      message: `pom.xml cannot be used: ${p.message}.`,
      file: 'pom.xml',
      fix: 'Make pom.xml a well-formed Maven POM (`mvn -q validate` shows the same error).',
    };
    if (p.line !== undefined) finding.line = p.line;
    report(finding);
  }
  const queue = [top];
  for (let q = 0; q < queue.length; q++) {
    const node = queue[q]!;
    if (node.loaded.link !== undefined) walkModules(node, root, loader, visited, report, queue);
  }
  const out: LoadedPom[] = [];
  const stack = [top];
  while (stack.length > 0) {
    const node = stack.pop()!;
    out.push(node.loaded);
    for (let i = node.below.length - 1; i >= 0; i--) stack.push(node.below[i]!);
  }
  return out;
}

/** Claims the modules one aggregator lists; what cannot be walked is reported. */
function walkModules(node: ReactorNode, root: string, loader: PomLoader, visited: Set<string>, report: Report, queue: ReactorNode[]): void {
  const abs = node.loaded.abs;
  const pom = node.loaded.link!.pom;
  const file = node.loaded.file ?? 'pom.xml';
  const owner = rawCoords(pom);
  const chainHere = [...node.aggregators, abs];
  // Problems found in a module's own POM are reported after the aggregator's other module findings.
  const late: Finding[] = [];
  // The aggregator's folder is a real path (every POM walked is reached by its real path), so a
  // module named by a folder listed there that is no link is a real path too. A listed name is
  // never '.', '..' or a path, so only a plain `<module>` name can match one.
  const dir = path.dirname(abs);
  const realFolders = pom.modules.length > 0 ? loader.realSubfolders(dir) : undefined;
  for (const m of pom.modules) {
    const missing = (why: string, fix: string): Finding => ({ code: 'module-missing', severity: 'error', message: `The module "${m.value}" listed in ${file} ${why}.`, file, line: m.line, module: owner, fix });
    let target = resolveIn(dir, m.value);
    if (relativeToRoot(root, target) === undefined) {
      report(missing('points outside the project folder, so it is not part of this release', 'List only modules inside the project folder, or run relctl from the folder that contains them all.'));
      continue;
    }
    const pomFile = loader.moduleFile(target, realFolders?.has(m.value) === true);
    if (pomFile === undefined) {
      report(missing('does not exist', `Create ${m.value}/pom.xml or remove the <module> entry.`));
      continue;
    }
    target = pomFile;
    if (relativeToRoot(root, target) === undefined) {
      report(missing('resolves (through a link) outside the project folder', 'Replace the link with the module folder itself.'));
      continue;
    }
    if (chainHere.includes(target)) {
      report(missing('points back at an aggregator that lists it (a module cycle)', 'Remove the <module> entry that points back up the tree.'));
      continue;
    }
    if (visited.has(target)) continue; // listed twice: walked once
    visited.add(target);
    const loaded = loader.load(target, 'project');
    const p = loaded.problem;
    if (p?.kind === 'missing') {
      late.push(missing(`has no POM (${relativeToRoot(root, target)} does not exist)`, `Create ${m.value}/pom.xml or remove the <module> entry.`));
      continue;
    }
    if (p?.kind === 'not-a-file') {
      late.push(missing(`has no POM (${relativeToRoot(root, target)} is a directory, not a file)`, `Replace ${relativeToRoot(root, target)} with the module's POM file.`));
      continue;
    }
    if (p !== undefined) {
      const finding: Finding = {
        code: 'xml-malformed',
        severity: 'error',
        message: `${loaded.file ?? target} cannot be parsed: ${p.message}.`,
        file: loaded.file ?? target,
        fix: 'Correct the XML at the line shown (`mvn -q validate` reports the same error).',
      };
      if (p.line !== undefined) finding.line = p.line;
      late.push(finding);
    }
    const next: ReactorNode = { loaded, aggregators: chainHere, below: [] };
    node.below.push(next);
    queue.push(next);
  }
  for (const f of late) report(f);
}

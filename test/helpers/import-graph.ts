import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

/** How a module reaches another: a value import, a type-only one, or a lazy `import()`. */
export type EdgeKind = 'value' | 'type' | 'dynamic';
export interface Edge {
  from: string;
  to: string;
  kind: EdgeKind;
}

const tsFiles = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return tsFiles(full);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts') ? [full] : [];
  });

/** The relative specifiers of one module's source, each with how it is imported (comments and strings ignored). */
export function specifiersOf(fileName: string, text: string): { specifier: string; kind: EdgeKind }[] {
  const source = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, false, ts.ScriptKind.TS);
  const found: { specifier: string; kind: EdgeKind }[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isImportDeclaration(node) && ts.isStringLiteral(node.moduleSpecifier)) {
      const clause = node.importClause;
      const typeOnly =
        clause !== undefined &&
        (clause.isTypeOnly ||
          (clause.name === undefined &&
            clause.namedBindings !== undefined &&
            ts.isNamedImports(clause.namedBindings) &&
            clause.namedBindings.elements.length > 0 &&
            clause.namedBindings.elements.every((e) => e.isTypeOnly)));
      found.push({ specifier: node.moduleSpecifier.text, kind: typeOnly ? 'type' : 'value' });
    } else if (ts.isExportDeclaration(node) && node.moduleSpecifier !== undefined && ts.isStringLiteral(node.moduleSpecifier)) {
      found.push({ specifier: node.moduleSpecifier.text, kind: node.isTypeOnly ? 'type' : 'value' });
    } else if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword) {
      const [arg] = node.arguments;
      if (arg !== undefined && ts.isStringLiteralLike(arg)) found.push({ specifier: arg.text, kind: 'dynamic' });
    } else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument) && ts.isStringLiteral(node.argument.literal)) {
      // `import('./x.js').T` in a type position: a type edge.
      found.push({ specifier: node.argument.literal.text, kind: 'type' });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found.filter((f) => f.specifier.startsWith('.'));
}

/** Every relative import edge between the .ts modules below `dir` (paths relative to `dir`, `.js` resolved to `.ts`). */
export function importEdges(dir: string): Edge[] {
  const files = tsFiles(dir);
  const known = new Set(files);
  return files.flatMap((file) =>
    specifiersOf(file, readFileSync(file, 'utf8')).flatMap(({ specifier, kind }) => {
      const target = path.resolve(path.dirname(file), specifier).replace(/\.js$/, '.ts');
      const resolved = known.has(target) ? target : known.has(path.join(target, 'index.ts')) ? path.join(target, 'index.ts') : undefined;
      if (resolved === undefined) return [];
      return [{ from: path.relative(dir, file), to: path.relative(dir, resolved), kind }];
    }),
  );
}

/** The strongly connected components with more than one module (or a module importing itself): Tarjan's algorithm. */
export function cycles(edges: readonly Edge[]): string[][] {
  const next = new Map<string, string[]>();
  for (const { from, to } of edges) {
    next.set(from, [...(next.get(from) ?? []), to]);
    if (!next.has(to)) next.set(to, []);
  }
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  let counter = 0;
  const connect = (v: string): void => {
    index.set(v, counter);
    low.set(v, counter);
    counter++;
    stack.push(v);
    onStack.add(v);
    for (const w of next.get(v) ?? []) {
      if (!index.has(w)) {
        connect(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) {
        low.set(v, Math.min(low.get(v)!, index.get(w)!));
      }
    }
    if (low.get(v) === index.get(v)) {
      const component: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        component.push(w);
      } while (w !== v);
      if (component.length > 1 || (next.get(v) ?? []).includes(v)) found.push(component.sort());
    }
  };
  for (const v of [...next.keys()].sort()) if (!index.has(v)) connect(v);
  return found.sort((a, b) => a[0]!.localeCompare(b[0]!));
}

/** One component as text: its modules, then the edges inside it with their kinds. */
export function describeCycle(component: readonly string[], edges: readonly Edge[]): string {
  const inside = new Set(component);
  const lines = edges
    .filter((e) => inside.has(e.from) && inside.has(e.to))
    .map((e) => `    ${e.from} -> ${e.to}${e.kind === 'value' ? '' : ` (${e.kind})`}`)
    .sort();
  return [`  ${component.join(', ')}`, ...[...new Set(lines)]].join('\n');
}

/**
 * The import graph between Livery's parts, read from the import statements of src/**\/*.ts with
 * the TypeScript parser (no program, no type check: a few hundred milliseconds). A *part* is a
 * module folder (`src/modules/<name>` → `<name>`), another folder of src (`http`, `db`,
 * `settings`, `workers`) or a file at the top of src (`src/errors.ts` → `errors.ts`); see `partOf`.
 *
 * An edge is *runtime* unless the statement is `import type` / `export type`: only runtime edges
 * make a load-order cycle, so only they are checked for cycles (test/unit/module-graph.test.ts).
 *
 * `npm run docs:module-graph` prints the mermaid block of docs/architecture.md from the code
 * (`npm run docs:module-graph -- --write` puts it there).
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

export interface ImportEdge {
  from: string;
  to: string;
  /** The importing file and the imported one, relative to src/. */
  fromFile: string;
  toFile: string;
  typeOnly: boolean;
}

const ROOT = fileURLToPath(new URL('../', import.meta.url));

/**
 * The part a file (relative to src/, with `/` separators) belongs to. A worker thread's task file
 * (`workers/render-tasks.ts`) is a part of its own: the thread's entry, loaded by its path and
 * imported by nothing at run time, it runs module code in the pool that modules call.
 */
export function partOf(file: string): string {
  if (/^workers\/[^/]+-tasks\.ts$/.test(file)) return file;
  const segments = file.split('/');
  if (segments[0] === 'modules' && segments.length > 2) return segments[1] as string;
  return segments.length > 1 ? (segments[0] as string) : file;
}

/** Whether a part is a folder of src/modules. */
export const isModule = (part: string, src = join(ROOT, 'src')): boolean =>
  !part.includes('.') && modulesOf(src).includes(part);

function modulesOf(src: string): string[] {
  return readdirSync(join(src, 'modules'), { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name);
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts') ? [path] : [];
  });
}

/** Every relative import between files of src/ (package imports are not part of the graph). */
export function importEdges(src = join(ROOT, 'src')): ImportEdge[] {
  const edges: ImportEdge[] = [];
  for (const path of sourceFiles(src)) {
    const fromFile = relative(src, path).split(sep).join('/');
    const text = readFileSync(path, 'utf8');
    const source = ts.createSourceFile(path, text, ts.ScriptTarget.Latest, false);
    for (const statement of source.statements) {
      const target = specifierOf(statement);
      if (target === undefined || !target.specifier.startsWith('.')) continue;
      const imported = resolve(dirname(path), target.specifier.replace(/\.js$/, '.ts'));
      const toFile = relative(src, imported).split(sep).join('/');
      if (toFile.startsWith('..')) continue;
      edges.push({
        from: partOf(fromFile),
        to: partOf(toFile),
        fromFile,
        toFile,
        typeOnly: target.typeOnly,
      });
    }
  }
  return edges;
}

function specifierOf(
  statement: ts.Statement,
): { specifier: string; typeOnly: boolean } | undefined {
  if (ts.isImportDeclaration(statement) && ts.isStringLiteral(statement.moduleSpecifier)) {
    return {
      specifier: statement.moduleSpecifier.text,
      typeOnly: statement.importClause?.isTypeOnly === true,
    };
  }
  if (
    ts.isExportDeclaration(statement) &&
    statement.moduleSpecifier !== undefined &&
    ts.isStringLiteral(statement.moduleSpecifier)
  ) {
    return { specifier: statement.moduleSpecifier.text, typeOnly: statement.isTypeOnly };
  }
  return undefined;
}

/** part → the parts it imports at run time (edges inside a part are left out). */
export function runtimeGraph(edges: readonly ImportEdge[]): Map<string, Set<string>> {
  const graph = new Map<string, Set<string>>();
  for (const edge of edges) {
    if (!graph.has(edge.from)) graph.set(edge.from, new Set());
    if (!graph.has(edge.to)) graph.set(edge.to, new Set());
    if (edge.typeOnly || edge.from === edge.to) continue;
    graph.get(edge.from)?.add(edge.to);
  }
  return graph;
}

/** The strongly connected groups of more than one part (Tarjan): each is a runtime cycle. */
export function cycles(graph: ReadonlyMap<string, ReadonlySet<string>>): string[][] {
  let counter = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (node: string): void => {
    index.set(node, counter);
    low.set(node, counter);
    counter++;
    stack.push(node);
    onStack.add(node);
    for (const next of graph.get(node) ?? []) {
      if (!index.has(next)) {
        visit(next);
        low.set(node, Math.min(low.get(node) as number, low.get(next) as number));
      } else if (onStack.has(next)) {
        low.set(node, Math.min(low.get(node) as number, index.get(next) as number));
      }
    }
    if (low.get(node) === index.get(node)) {
      const group: string[] = [];
      let member: string | undefined;
      do {
        member = stack.pop() as string;
        onStack.delete(member);
        group.push(member);
      } while (member !== node);
      if (group.length > 1) found.push(group.sort());
    }
  };
  for (const node of [...graph.keys()].sort()) if (!index.has(node)) visit(node);
  return found.sort((a, b) => (a[0] as string).localeCompare(b[0] as string));
}

/**
 * The picture of docs/architecture.md: runtime imports between module folders and the settings
 * leaf, one `a --> b` line each, sorted. http/, db/ and the files at the top of src/ are left out:
 * every module may use them, and the test checks that they import no module.
 */
export function mermaidGraph(edges: readonly ImportEdge[], src = join(ROOT, 'src')): string {
  const shown = (part: string) => part === 'settings' || isModule(part, src);
  const graph = runtimeGraph(edges);
  const lines: string[] = [];
  for (const from of [...graph.keys()].filter(shown).sort()) {
    const targets = [...(graph.get(from) ?? [])].filter(shown).sort();
    if (targets.length === 0) lines.push(`  ${from}`);
    for (const to of targets) lines.push(`  ${from} --> ${to}`);
  }
  return ['```mermaid', 'graph LR', ...lines, '```'].join('\n');
}

/** docs/architecture.md, and its picture between the two marker comments. */
export const ARCHITECTURE_DOC = join(ROOT, 'docs/architecture.md');
const PICTURE = /(<!-- module-graph:[^\n]*-->\n)([\s\S]*?)(\n<!-- \/module-graph -->)/;

/** The picture docs/architecture.md shows now, or undefined when its markers are missing. */
export function documentedGraph(doc = readFileSync(ARCHITECTURE_DOC, 'utf8')): string | undefined {
  return PICTURE.exec(doc)?.[2];
}

// `npm run docs:module-graph` prints the picture; with `-- --write` it replaces the doc's.
if (process.argv[1] !== undefined && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const picture = mermaidGraph(importEdges());
  if (process.argv.includes('--write')) {
    const doc = readFileSync(ARCHITECTURE_DOC, 'utf8');
    if (documentedGraph(doc) === undefined) throw new Error('docs/architecture.md: no markers');
    writeFileSync(
      ARCHITECTURE_DOC,
      doc.replace(PICTURE, (_, open, _old, close) => open + picture + close),
    );
    process.stdout.write('docs/architecture.md: module graph written\n');
  } else {
    process.stdout.write(`${picture}\n`);
  }
}

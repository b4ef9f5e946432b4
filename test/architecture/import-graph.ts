import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import ts from 'typescript';

/** One import in src/: which file, what it names, whether it resolves inside src/, and if only types. */
export interface ImportEdge {
  from: string; // path below src/, with '/'
  specifier: string;
  to: string | null; // path below src/ for a relative import, else null
  typeOnly: boolean;
  /** An `import()` call: loaded when the code runs it, not with the file. */
  dynamic: boolean;
  line: number;
}

export const SRC = resolve(import.meta.dirname, '../../src');

export function sourceFiles(dir = SRC): string[] {
  const files: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) files.push(...sourceFiles(path));
    else if (entry.name.endsWith('.ts')) files.push(path);
  }
  return files.sort();
}

export function below(path: string): string {
  return relative(SRC, path).split(sep).join('/');
}

/** Every static import and export-from, and every dynamic import() with a literal, parsed (not type-checked). */
export function importsOf(path: string): ImportEdge[] {
  const text = readFileSync(path, 'utf8');
  const file = ts.createSourceFile(path, text, ts.ScriptTarget.Latest, true);
  const edges: ImportEdge[] = [];
  const add = (node: ts.Node, specifier: string, typeOnly: boolean, dynamic = false) => {
    const target = specifier.startsWith('.') ? below(resolve(dirname(path), specifier)) : null;
    const line = file.getLineAndCharacterOfPosition(node.getStart()).line + 1;
    edges.push({ from: below(path), specifier, to: target, typeOnly, dynamic, line });
  };
  const visit = (node: ts.Node): void => {
    if (ts.isImportDeclaration(node) && ts.isStringLiteral(node.moduleSpecifier)) {
      const clause = node.importClause;
      const named = clause?.namedBindings;
      const allTypes =
        clause !== undefined &&
        (clause.isTypeOnly ||
          (clause.name === undefined && named !== undefined && ts.isNamedImports(named) && named.elements.length > 0 && named.elements.every((e) => e.isTypeOnly)));
      add(node, node.moduleSpecifier.text, allTypes);
    } else if (ts.isExportDeclaration(node) && node.moduleSpecifier && ts.isStringLiteral(node.moduleSpecifier)) {
      add(node, node.moduleSpecifier.text, node.isTypeOnly);
    } else if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword) {
      const [argument] = node.arguments;
      if (argument && ts.isStringLiteral(argument)) add(node, argument.text, false, true);
    } else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument) && ts.isStringLiteral(node.argument.literal)) {
      add(node, node.argument.literal.text, true);
    }
    ts.forEachChild(node, visit);
  };
  visit(file);
  return edges;
}

/** The top folder of a path below src/ ('detect/parse.ts' -> 'detect'). */
export function folderOf(path: string): string {
  return path.split('/')[0]!;
}

/** The rows of the table in docs/architecture.md whose header starts with `| first |`: each cell's `names`. */
export function ruleTable(first: string): Map<string, string[][]> {
  const lines = readFileSync(resolve(SRC, '../docs/architecture.md'), 'utf8').split('\n');
  const start = lines.findIndex((line) => line.startsWith(`| ${first} |`));
  if (start < 0) throw new Error(`docs/architecture.md has no table starting "| ${first} |"`);
  const rows = new Map<string, string[][]>();
  for (const line of lines.slice(start + 2)) {
    if (!line.startsWith('|')) break;
    const cells = line.split('|').slice(1, -1).map((cell) => (cell.includes('every room') ? ['*'] : [...cell.matchAll(/`([^`]+)`/g)].map((m) => m[1]!)));
    const [key, ...rest] = cells;
    if (key?.length !== 1) throw new Error(`docs/architecture.md: a row of "${first}" names no one ${first}: ${line}`);
    rows.set(key[0]!, rest);
  }
  return rows;
}

/** The room of a path below src/daemon/: its folder (`panes/`) or, at the root, its file (`daemon.ts`). */
export function daemonRoomOf(path: string): string {
  const parts = path.split('/');
  return parts.length > 2 ? `${parts[1]}/` : parts[1]!;
}

/** Every file and package a bundle entry loads with it: static imports that are not of types only. */
export function loadedWith(entry: string, edgesOf: (file: string) => ImportEdge[]): { files: string[]; packages: string[] } {
  const files = new Set<string>();
  const packages = new Set<string>();
  const todo = [entry];
  while (todo.length > 0) {
    const file = todo.pop()!;
    if (files.has(file)) continue;
    files.add(file);
    for (const edge of edgesOf(file)) {
      if (edge.typeOnly || edge.dynamic) continue;
      if (edge.to !== null) todo.push(edge.to);
      else if (!edge.specifier.startsWith('node:')) packages.add(edge.specifier);
    }
  }
  return { files: [...files].sort(), packages: [...packages].sort() };
}

/** Circles among files, each as the list of files around it (Tarjan's strongly connected components). */
export function circles(edges: readonly ImportEdge[]): string[][] {
  const next = new Map<string, string[]>();
  for (const edge of edges) if (edge.to) next.set(edge.from, [...(next.get(edge.from) ?? []), edge.to]);
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  let counter = 0;
  const connect = (node: string): void => {
    index.set(node, counter);
    low.set(node, counter);
    counter += 1;
    stack.push(node);
    onStack.add(node);
    for (const to of next.get(node) ?? []) {
      if (!index.has(to)) {
        connect(to);
        low.set(node, Math.min(low.get(node)!, low.get(to)!));
      } else if (onStack.has(to)) low.set(node, Math.min(low.get(node)!, index.get(to)!));
    }
    if (low.get(node) === index.get(node)) {
      const component: string[] = [];
      let member: string;
      do {
        member = stack.pop()!;
        onStack.delete(member);
        component.push(member);
      } while (member !== node);
      const selfLoop = (next.get(node) ?? []).includes(node);
      if (component.length > 1 || selfLoop) found.push(component.sort());
    }
  };
  for (const node of [...next.keys()].sort()) if (!index.has(node)) connect(node);
  return found;
}

/** Modules that do I/O or hold a process, by name without the `node:` prefix. */
export const IO_MODULES = new Set([
  'fs', 'fs/promises', 'net', 'child_process', 'os', 'http', 'https', 'http2', 'tls', 'dgram', 'dns',
  'process', 'worker_threads', 'tty', 'readline', 'cluster', 'node-pty', '@xterm/headless',
]);

const PROCESS_MEMBERS = new Set([
  'env', 'argv', 'cwd', 'chdir', 'exit', 'exitCode', 'pid', 'ppid', 'platform', 'arch', 'stdout', 'stderr',
  'stdin', 'on', 'once', 'off', 'kill', 'hrtime', 'nextTick', 'umask', 'getuid', 'getgid', 'geteuid',
  'memoryUsage', 'execPath', 'versions', 'version', 'emitWarning', 'uptime', 'title',
]);

/** Uses of Node's global `process` (`process.env`, `process.cwd()` ...), with their lines. */
export function processUses(path: string): number[] {
  const text = readFileSync(path, 'utf8');
  const file = ts.createSourceFile(path, text, ts.ScriptTarget.Latest, true);
  const lines: number[] = [];
  const visit = (node: ts.Node): void => {
    if (
      ts.isPropertyAccessExpression(node) &&
      ts.isIdentifier(node.expression) &&
      node.expression.text === 'process' &&
      PROCESS_MEMBERS.has(node.name.text)
    ) {
      lines.push(file.getLineAndCharacterOfPosition(node.getStart()).line + 1);
    }
    if (ts.isQualifiedName(node) && ts.isIdentifier(node.left) && node.left.text === 'NodeJS' && node.right.text.startsWith('Process')) {
      lines.push(file.getLineAndCharacterOfPosition(node.getStart()).line + 1);
    }
    ts.forEachChild(node, visit);
  };
  visit(file);
  return lines;
}

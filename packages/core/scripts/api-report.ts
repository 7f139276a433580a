/**
 * The public surface of @tool-search/core as text: every name an entry point exports, with its
 * declaration as a consumer's type checker sees it (comments left out), and every declaration
 * those reach that is not itself exported. Sorted by name, printed by TypeScript's printer, so
 * neither the order in which a bundler writes its chunks nor the file a declaration lives in
 * changes the report; only a change a consumer could notice does.
 *
 * Two sources give the same report: the package's sources (their declarations emitted in
 * memory, what `api-surface.test.ts` checks on every test run, no build needed) and the built
 * `dist/*.d.ts` (`tsx scripts/api-report.ts --dist` after `pnpm build`, which compares the
 * bundler's declarations with the committed report).
 */
import ts from 'typescript';

export const ENTRY_POINTS = ['index', 'testing'] as const;
export type EntryPoint = (typeof ENTRY_POINTS)[number];

const packageRoot = ts.sys.resolvePath(`${import.meta.dirname}/..`);

/** The report of each entry point, from the sources (default) or from the built `dist/`. */
export function apiReports(from: 'source' | 'dist' = 'source'): Record<EntryPoint, string> {
  const program = from === 'source' ? declarationProgramOfSources() : distProgram();
  const checker = program.getTypeChecker();
  const entryFiles = ENTRY_POINTS.map((entry) => {
    const file = program
      .getSourceFiles()
      .find((source) =>
        source.fileName.endsWith(from === 'source' ? `/src/${entry}.d.ts` : `/dist/${entry}.d.ts`),
      );
    if (!file) throw new Error(`api-report: no declarations of ${entry} (${from})`);
    return { entry, file };
  });
  // A declaration exported by any entry point is reported there, not among another's internals.
  const exported = new Set<ts.Symbol>();
  const exportsOf = new Map<EntryPoint, ts.Symbol[]>();
  for (const { entry, file } of entryFiles) {
    const moduleSymbol = checker.getSymbolAtLocation(file);
    const symbols = moduleSymbol ? checker.getExportsOfModule(moduleSymbol) : [];
    exportsOf.set(entry, symbols);
    for (const symbol of symbols) exported.add(resolveAlias(checker, symbol));
  }
  const reports = {} as Record<EntryPoint, string>;
  for (const { entry } of entryFiles) {
    reports[entry] = reportOf(checker, program, exportsOf.get(entry) ?? [], exported);
  }
  return reports;
}

function resolveAlias(checker: ts.TypeChecker, symbol: ts.Symbol): ts.Symbol {
  return symbol.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(symbol) : symbol;
}

const printer = ts.createPrinter({ removeComments: true, newLine: ts.NewLineKind.LineFeed });

/** A declaration's text without `export`, `declare` and `default` (where it is exported from is the report's business). */
function printDeclaration(node: ts.Declaration): string {
  const statement = ts.isVariableDeclaration(node) ? node.parent.parent : node;
  const keyword =
    ts.isVariableDeclaration(node) && ts.isVariableDeclarationList(node.parent)
      ? node.parent.flags & ts.NodeFlags.Const
        ? 'const '
        : 'let '
      : '';
  const target = ts.isVariableDeclaration(node) ? node : statement;
  const text = printer.printNode(ts.EmitHint.Unspecified, target, statement.getSourceFile());
  return (keyword + text).replace(/^(?:(?:export|declare|default) )+/, '');
}

function isOwnDeclaration(program: ts.Program, node: ts.Node): boolean {
  const file = node.getSourceFile();
  return !program.isSourceFileDefaultLibrary(file) && !file.fileName.includes('/node_modules/');
}

function reportOf(
  checker: ts.TypeChecker,
  program: ts.Program,
  symbols: readonly ts.Symbol[],
  exported: ReadonlySet<ts.Symbol>,
): string {
  const lines: string[] = [];
  const internal = new Map<ts.Symbol, string>();
  const queue: ts.Declaration[] = [];
  const sorted = [...symbols].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  for (const symbol of sorted) {
    const target = resolveAlias(checker, symbol);
    const declarations = (target.declarations ?? []).filter((node) => isOwnDeclaration(program, node));
    lines.push(`// ${symbol.name}`);
    for (const declaration of declarations) {
      lines.push(printDeclaration(declaration));
      queue.push(declaration);
    }
    lines.push('');
  }
  // Declarations the exported ones reach and that no entry point exports: part of the surface too.
  while (queue.length > 0) {
    const node = queue.pop()!;
    const visit = (child: ts.Node): void => {
      if (ts.isIdentifier(child) && isTypePosition(child)) {
        const found = checker.getSymbolAtLocation(child);
        if (found) {
          const target = resolveAlias(checker, found);
          const declarations = (target.declarations ?? []).filter(
            (declaration) =>
              isOwnDeclaration(program, declaration) &&
              (ts.isInterfaceDeclaration(declaration) ||
                ts.isTypeAliasDeclaration(declaration) ||
                ts.isClassDeclaration(declaration) ||
                ts.isEnumDeclaration(declaration) ||
                ts.isFunctionDeclaration(declaration) ||
                ts.isVariableDeclaration(declaration)),
          );
          if (declarations.length > 0 && !exported.has(target) && !internal.has(target)) {
            internal.set(target, declarations.map(printDeclaration).join('\n'));
            queue.push(...declarations);
          }
        }
      }
      ts.forEachChild(child, visit);
    };
    ts.forEachChild(node, visit);
  }
  if (internal.size > 0) {
    lines.push('// ---- reached from the exports, not exported ----', '');
    const texts = [...internal].map(([symbol, text]) => `// ${symbol.name}\n${text}\n`);
    texts.sort();
    lines.push(...texts);
  }
  return `${lines.join('\n').trimEnd()}\n`;
}

/** An identifier that names a type, or a value in `typeof`: the references that can reach other declarations. */
function isTypePosition(node: ts.Identifier): boolean {
  let current: ts.Node = node;
  while (ts.isQualifiedName(current.parent) && current.parent.left === current) current = current.parent;
  const parent = current.parent;
  return (
    (ts.isTypeReferenceNode(parent) && parent.typeName === current) ||
    (ts.isTypeQueryNode(parent) && parent.exprName === current) ||
    (ts.isExpressionWithTypeArguments(parent) && parent.expression === current)
  );
}

/** The sources' declarations, emitted in memory, as a program of their own. */
function declarationProgramOfSources(): ts.Program {
  const configPath = `${packageRoot}/tsconfig.json`;
  const parsed = ts.getParsedCommandLineOfConfigFile(
    configPath,
    {},
    {
      ...ts.sys,
      onUnRecoverableConfigFileDiagnostic: (diagnostic) => {
        throw new Error(ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n'));
      },
    },
  );
  if (!parsed) throw new Error(`api-report: cannot read ${configPath}`);
  const options: ts.CompilerOptions = {
    ...parsed.options,
    noEmit: false,
    declaration: true,
    emitDeclarationOnly: true,
    declarationMap: false,
    sourceMap: false,
    rootDir: packageRoot,
    outDir: `${packageRoot}/dist/.api-report`,
  };
  const rootNames = ENTRY_POINTS.map((entry) => `${packageRoot}/src/${entry}.ts`);
  const emitted = new Map<string, string>();
  const source = ts.createProgram({ rootNames, options });
  const result = source.emit(undefined, (fileName, text) => {
    emitted.set(ts.sys.resolvePath(fileName), text);
  });
  const errors = [...ts.getPreEmitDiagnostics(source), ...result.diagnostics].filter(
    (diagnostic) => diagnostic.category === ts.DiagnosticCategory.Error,
  );
  if (errors.length > 0) {
    throw new Error(
      `api-report: the sources do not compile:\n${ts.formatDiagnostics(errors, {
        getCanonicalFileName: (name) => name,
        getCurrentDirectory: () => packageRoot,
        getNewLine: () => '\n',
      })}`,
    );
  }
  const declarationOptions: ts.CompilerOptions = { ...options, noEmit: true, declaration: false };
  const host = ts.createCompilerHost(declarationOptions);
  const readFile = host.readFile.bind(host);
  const fileExists = host.fileExists.bind(host);
  host.readFile = (fileName) => emitted.get(ts.sys.resolvePath(fileName)) ?? readFile(fileName);
  host.fileExists = (fileName) => emitted.has(ts.sys.resolvePath(fileName)) || fileExists(fileName);
  const emittedDirectory = `${ts.sys.resolvePath(options.outDir!)}/`;
  host.directoryExists = (directory) =>
    `${ts.sys.resolvePath(directory)}/`.startsWith(emittedDirectory) || ts.sys.directoryExists(directory);
  return ts.createProgram({
    rootNames: ENTRY_POINTS.map((entry) => `${packageRoot}/dist/.api-report/src/${entry}.d.ts`),
    options: declarationOptions,
    host,
  });
}

function distProgram(): ts.Program {
  const rootNames = ENTRY_POINTS.map((entry) => `${packageRoot}/dist/${entry}.d.ts`);
  for (const file of rootNames) {
    if (!ts.sys.fileExists(file)) throw new Error(`api-report: ${file} is missing; run pnpm build first.`);
  }
  return ts.createProgram({
    rootNames,
    options: {
      strict: true,
      noEmit: true,
      skipLibCheck: true,
      module: ts.ModuleKind.ESNext,
      moduleResolution: ts.ModuleResolutionKind.Bundler,
      target: ts.ScriptTarget.ES2023,
      types: ['node'],
    },
  });
}

export function reportPath(entry: EntryPoint): string {
  return `${packageRoot}/api/${entry}.api.txt`;
}

// `tsx scripts/api-report.ts --dist`: the built declarations against the committed report.
if (process.argv[1] && import.meta.filename === ts.sys.resolvePath(process.argv[1])) {
  const from = process.argv.includes('--dist') ? 'dist' : 'source';
  const reports = apiReports(from);
  let differs = false;
  for (const entry of ENTRY_POINTS) {
    const committed = ts.sys.readFile(reportPath(entry));
    if (committed === reports[entry]) {
      console.log(`${entry}: the ${from} surface matches api/${entry}.api.txt`);
      continue;
    }
    differs = true;
    const written = `${packageRoot}/dist/.api-report/${entry}.${from}.api.txt`;
    ts.sys.writeFile(written, reports[entry]);
    console.log(
      `${entry}: the ${from} surface differs from api/${entry}.api.txt; it is written to ${written}`,
    );
  }
  process.exitCode = differs ? 1 : 0;
}

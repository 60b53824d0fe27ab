import { readFileSync, readdirSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";
import { describe, expect, it } from "vitest";

const sourceDirectory = dirname(fileURLToPath(import.meta.url));

/** Every module of the package's source (tests excluded). */
function sourceFiles(directory: string): string[] {
  return readdirSync(directory, { withFileTypes: true }).flatMap((entry) => {
    const path = join(directory, entry.name);
    if (entry.isDirectory()) return entry.name === "__fixtures__" ? [] : sourceFiles(path);
    return entry.name.endsWith(".ts") && !entry.name.endsWith(".test.ts") ? [path] : [];
  });
}

/** Whether an import or export declaration is erased at runtime (`import type`, or every name `type`). */
function isTypeOnly(declaration: ts.ImportDeclaration | ts.ExportDeclaration): boolean {
  if (ts.isExportDeclaration(declaration)) {
    if (declaration.isTypeOnly) return true;
    const clause = declaration.exportClause;
    return clause !== undefined && ts.isNamedExports(clause) && clause.elements.length > 0 && clause.elements.every((element) => element.isTypeOnly);
  }
  const clause = declaration.importClause;
  if (clause === undefined) return false;
  if (clause.isTypeOnly) return true;
  const bindings = clause.namedBindings;
  return clause.name === undefined && bindings !== undefined && ts.isNamedImports(bindings) && bindings.elements.length > 0 && bindings.elements.every((element) => element.isTypeOnly);
}

/** The package modules a module imports at runtime (relative specifiers, `.js` resolved to `.ts`). */
function runtimeImports(file: string): string[] {
  const source = ts.createSourceFile(file, readFileSync(file, "utf8"), ts.ScriptTarget.Latest, false);
  const imports: string[] = [];
  for (const statement of source.statements) {
    if (!ts.isImportDeclaration(statement) && !ts.isExportDeclaration(statement)) continue;
    const specifier = statement.moduleSpecifier;
    if (specifier === undefined || !ts.isStringLiteral(specifier) || !specifier.text.startsWith(".") || isTypeOnly(statement)) continue;
    imports.push(resolve(dirname(file), specifier.text.replace(/\.js$/, ".ts")));
  }
  return imports;
}

/** The first import cycle found (as the chain of modules, relative to `src/`), or null. */
function findCycle(graph: Map<string, string[]>): string[] | null {
  const state = new Map<string, "open" | "done">();
  const chain: string[] = [];
  const visit = (module: string): string[] | null => {
    if (state.get(module) === "done") return null;
    if (state.get(module) === "open") return [...chain.slice(chain.indexOf(module)), module];
    state.set(module, "open");
    chain.push(module);
    for (const next of graph.get(module) ?? []) {
      const cycle = visit(next);
      if (cycle !== null) return cycle;
    }
    chain.pop();
    state.set(module, "done");
    return null;
  };
  for (const module of graph.keys()) {
    const cycle = visit(module);
    if (cycle !== null) return cycle.map((path) => relative(sourceDirectory, path));
  }
  return null;
}

describe("the modules of provider-adapters", () => {
  it("import one another without a cycle (type-only imports aside)", { timeout: 60_000 }, () => {
    const graph = new Map(sourceFiles(sourceDirectory).map((file) => [file, runtimeImports(file)]));
    expect(graph.size).toBeGreaterThan(50);
    expect(findCycle(graph)).toBeNull();
  });

  it("finds a cycle when there is one", () => {
    const graph = new Map([
      [join(sourceDirectory, "a.ts"), [join(sourceDirectory, "b.ts")]],
      [join(sourceDirectory, "b.ts"), [join(sourceDirectory, "c.ts")]],
      [join(sourceDirectory, "c.ts"), [join(sourceDirectory, "a.ts")]],
    ]);
    expect(findCycle(graph)).toEqual(["a.ts", "b.ts", "c.ts", "a.ts"]);
  });
});

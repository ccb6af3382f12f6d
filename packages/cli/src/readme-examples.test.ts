import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import ts from 'typescript';
import { afterAll, describe, expect, it } from 'vitest';

// Every code block of every README, run as a user would: a ```ts block is TypeScript, type-checked
// under the repository's own compiler settings (tsconfig.base.json) and then run on Node; a ```js block
// is CommonJS (the README's require() variant) and runs with plain Node as a .cjs file, a ```mjs block
// as ESM. .ci/test-install.sh runs the same blocks again in a fresh `npm init -y` project. A ```ts fragment block continues a larger program (it needs a
// CUDA device, or names values defined elsewhere) and is only listed; shell blocks are not run.

const root = fileURLToPath(new URL('../../../', import.meta.url));
const run = promisify(execFile);

interface Example {
  readonly readme: string;
  readonly line: number;
  readonly language: string;
  readonly code: string;
}

function readmes(): string[] {
  const packages = readdirSync(join(root, 'packages'), { withFileTypes: true }).filter((entry) => entry.isDirectory());
  return ['README.md', ...packages.map((entry) => join('packages', entry.name, 'README.md'))].filter((path) => {
    try {
      readFileSync(join(root, path));
      return true;
    } catch {
      return false;
    }
  });
}

function examplesOf(readme: string): Example[] {
  const lines = readFileSync(join(root, readme), 'utf8').split('\n');
  const found: Example[] = [];
  for (let index = 0; index < lines.length; index += 1) {
    const open = /^```(\S*)(.*)$/.exec(lines[index]!);
    if (!open) continue;
    const start = index;
    const body: string[] = [];
    for (index += 1; index < lines.length && !lines[index]!.startsWith('```'); index += 1) body.push(lines[index]!);
    found.push({ readme, line: start + 1, language: `${open[1]}${open[2]}`.trim(), code: `${body.join('\n')}\n` });
  }
  return found;
}

const all = readmes().flatMap(examplesOf);
const typescript = all.filter((example) => example.language === 'ts');
const javascript = all.filter((example) => example.language === 'js' || example.language === 'mjs');
const known = new Set(['ts', 'js', 'mjs', 'ts fragment', 'sh', 'text', 'json']);

// Inside packages/cli/node_modules, so that `@kreplay/*` resolve to this workspace's packages.
const workspace = join(root, 'packages', 'cli', 'node_modules');
mkdirSync(workspace, { recursive: true });
const directory = mkdtempSync(join(workspace, '.readme-examples-'));
afterAll(() => rmSync(directory, { recursive: true, force: true }));

const fileName = (example: Example, extension: string) => `${example.readme.replace(/[/.]/g, '-')}-${example.line}.${extension}`;

describe('README examples', () => {
  it('are all blocks of a known language, the runnable ones found', () => {
    expect(all.filter((example) => !known.has(example.language)).map((example) => `${example.readme}:${example.line} \`\`\`${example.language}`)).toEqual([]);
    // The library packages each show a runnable example; the CLI's README and the root README show commands.
    const withExamples = new Set(typescript.map((example) => example.readme));
    expect(['native', 'tracker', 'snapshot', 'replay', 'bench'].filter((name) => !withExamples.has(join('packages', name, 'README.md')))).toEqual([]);
    // Each also shows the same as CommonJS, for projects without "type": "module".
    const withCommonJs = new Set(javascript.filter((example) => example.language === 'js').map((example) => example.readme));
    expect(['native', 'tracker', 'snapshot', 'replay', 'bench'].filter((name) => !withCommonJs.has(join('packages', name, 'README.md')))).toEqual([]);
  });

  it('type-check under the repository tsconfig (strict, noUncheckedIndexedAccess)', () => {
    const base = ts.readConfigFile(join(root, 'tsconfig.base.json'), (path) => ts.sys.readFile(path));
    const files = typescript.map((example) => {
      const path = join(directory, fileName(example, 'ts'));
      writeFileSync(path, `export {};\n${example.code}`);
      return path;
    });
    const parsed = ts.parseJsonConfigFileContent(
      { ...base.config, compilerOptions: { ...base.config.compilerOptions, composite: false, declaration: false, declarationMap: false, emitDeclarationOnly: false, noEmit: true } },
      ts.sys,
      directory,
    );
    const program = ts.createProgram(files, parsed.options);
    const problems = ts.getPreEmitDiagnostics(program).map((diagnostic) => {
      const where = diagnostic.file ? `${diagnostic.file.fileName.slice(directory.length + 1)}:${diagnostic.file.getLineAndCharacterOfPosition(diagnostic.start ?? 0).line}` : '';
      return `${where} ${ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n')}`;
    });
    expect(problems).toEqual([]);
  });

  it.each(typescript.map((example) => [`${example.readme}:${example.line}`, example] as const))('%s runs on Node', async (_name, example) => {
    const { outputText } = ts.transpileModule(`export {};\n${example.code}`, { compilerOptions: { target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.ESNext } });
    const path = join(directory, fileName(example, 'mjs'));
    writeFileSync(path, outputText);
    const { stdout } = await run(process.execPath, [path], { cwd: directory, timeout: 120_000 });
    expect(stdout.length).toBeGreaterThan(0);
  });

  it.each(javascript.map((example) => [`${example.readme}:${example.line}`, example] as const))('%s runs with plain Node', async (_name, example) => {
    const path = join(directory, fileName(example, example.language === 'js' ? 'cjs' : 'mjs'));
    writeFileSync(path, example.code);
    const { stdout } = await run(process.execPath, [path], { cwd: directory, timeout: 120_000 });
    expect(stdout.length).toBeGreaterThan(0);
  });
});

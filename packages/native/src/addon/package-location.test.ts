import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { packageLocation } from './package-location.js';

const packageRoot = fileURLToPath(new URL('../..', import.meta.url)).replace(/\/$/, '');
const scratch = mkdtempSync(join(tmpdir(), 'kreplay-package-location-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe('packageLocation', () => {
  it('finds this package from a source file in any folder of src/ and from dist/', () => {
    expect(packageLocation(import.meta.url)).toEqual({ packageRoot, moduleDirectory: join(packageRoot, 'src', 'addon') });
    expect(packageLocation(pathToFileURL(join(packageRoot, 'src', 'index.ts')).href).packageRoot).toBe(packageRoot);
    expect(packageLocation(pathToFileURL(join(packageRoot, 'dist', 'index.js')).href).packageRoot).toBe(packageRoot);
  });

  it("takes the folder above a bundle's own when no package.json above it is this package's", () => {
    const bundle = join(scratch, 'app', 'bundle');
    mkdirSync(bundle, { recursive: true });
    writeFileSync(join(scratch, 'app', 'package.json'), JSON.stringify({ name: 'some-app' }));
    expect(packageLocation(pathToFileURL(join(bundle, 'index.js')).href)).toEqual({ packageRoot: join(scratch, 'app'), moduleDirectory: bundle });
    const loose = join(scratch, 'loose', 'bundle');
    mkdirSync(loose, { recursive: true });
    expect(packageLocation(pathToFileURL(join(loose, 'index.js')).href).packageRoot).toBe(join(scratch, 'loose'));
  });
});

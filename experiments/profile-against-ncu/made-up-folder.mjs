// Made-up folders for the tests of the profile-against-ncu scripts: each a fresh temporary folder
// holding the files given by name (a name with a slash is written into its subfolder), removed after
// the importing test file's tests.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll } from 'vitest';

const made = [];
afterAll(() => made.forEach((folder) => rmSync(folder, { recursive: true, force: true })));

/** A new folder named from `prefix` under the system's temporary folder, holding `files` (name to text). */
export function folderWith(prefix, files) {
  const folder = mkdtempSync(join(tmpdir(), `${prefix}-`));
  made.push(folder);
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(dirname(join(folder, name)), { recursive: true });
    writeFileSync(join(folder, name), text);
  }
  return folder;
}

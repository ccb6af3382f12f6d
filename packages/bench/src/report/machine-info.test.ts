import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { gitCommit } from './machine-info.js';

const repositoryCommit = execFileSync('git', ['rev-parse', 'HEAD'], { cwd: new URL('.', import.meta.url), encoding: 'utf8' }).trim();

describe('gitCommit', () => {
  const original = process.cwd();
  afterEach(() => {
    process.chdir(original);
    vi.unstubAllEnvs();
  });

  it("is kreplay's own commit, also when run from a directory outside any repository", () => {
    const elsewhere = mkdtempSync(join(tmpdir(), 'kreplay-no-git-'));
    try {
      process.chdir(elsewhere);
      expect(gitCommit()).toBe(repositoryCommit);
    } finally {
      process.chdir(original);
      rmSync(elsewhere, { recursive: true, force: true });
    }
  });

  it('takes KREPLAY_GIT_COMMIT first (a copy of the tree without .git, e.g. a bundle on a GPU node)', () => {
    vi.stubEnv('KREPLAY_GIT_COMMIT', 'A'.repeat(40));
    expect(gitCommit()).toBe('a'.repeat(40));
    vi.stubEnv('KREPLAY_GIT_COMMIT', '0123abc');
    expect(gitCommit()).toBe('0123abc');
  });

  it('ignores a KREPLAY_GIT_COMMIT that is not a commit hash', () => {
    vi.stubEnv('KREPLAY_GIT_COMMIT', 'main; rm -rf /');
    expect(gitCommit()).toBe(repositoryCommit);
  });
});

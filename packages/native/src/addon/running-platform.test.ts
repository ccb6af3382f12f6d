import { describe, expect, it } from 'vitest';
import { runningPlatform } from './running-platform.js';

describe('runningPlatform', () => {
  it("describes this process: platform, architecture, Node-API version and, on Linux, the C library", () => {
    const running = runningPlatform();
    expect(running).toMatchObject({ platform: process.platform, arch: process.arch });
    expect(running.napiVersion).toBe(Number(process.versions.napi));
    const header = process.report.getReport() as { header: { glibcVersionRuntime?: string } };
    if (process.platform === 'linux' && header.header.glibcVersionRuntime) {
      expect(running).toMatchObject({ libc: 'glibc', glibcVersion: header.header.glibcVersionRuntime });
    } else {
      expect(running.glibcVersion).toBeUndefined();
    }
  });
});

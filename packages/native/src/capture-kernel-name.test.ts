import { describe, expect, it } from 'vitest';
import { captureKernelNameProblem } from './capture-kernel-name.js';

// The capture library matches --kernel-name with C++ std::regex (ECMAScript grammar); the addon
// checks a pattern with the same code, so that what JavaScript accepts and std::regex does not is
// refused before the program runs.
describe('captureKernelNameProblem', () => {
  it('accepts what std::regex compiles: alternatives, classes, anchors, lookahead', () => {
    for (const pattern of ['gemm', 'axpy|gemm', '^void apply<', '_Z\\d+scale', 'gemm(?=_)', '[a-z]+_kernel$']) {
      expect(captureKernelNameProblem(pattern), pattern).toBeNull();
    }
  });

  it("says std::regex's complaint and what it lacks for lookbehind, named groups and \\p{}, which JavaScript accepts", () => {
    for (const pattern of ['(?<=_)scale', '(?<!x)gemm', '(?<name>gemm)', '\\p{L}+']) {
      expect(() => new RegExp(pattern), pattern).not.toThrow();
      const problem = captureKernelNameProblem(pattern);
      expect(problem, pattern).toMatch(/^C\+\+ std::regex \(ECMAScript grammar\) cannot compile it: .+; it has no lookbehind/);
      expect(problem).toContain('named groups ((?<name>...))');
      expect(problem).toContain('\\p{...}');
    }
    expect(captureKernelNameProblem('(unclosed')).toMatch(/cannot compile it: /);
  });

  it('refuses what is not a string', () => {
    expect(() => captureKernelNameProblem(3 as unknown as string)).toThrow(/\[native\] \[capture\] /);
  });
});

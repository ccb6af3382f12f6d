import { describe, expect, it } from 'vitest';
import { captureKernelNameProblem, kernelNameFilterProblem, kernelNames, matchKernelNames } from './capture-kernel-name.js';

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

// --kernel-name as ncu reads it: a name matched whole, or regex: searched, in the name
// --kernel-name-base names (the function's by default), with the capture library's own code.
describe('kernel names and kernel-name filters', () => {
  const symbols = ['_Z5applyIiEviT_', '_Z7applyToi', 'scale', '_ZN2at6native18elementwise_kernelILi4EEEvi'];

  it("names a kernel by its function, demangled and mangled names", () => {
    expect(kernelNames('_Z5applyIiEviT_')).toEqual({ mangled: '_Z5applyIiEviT_', demangled: 'void apply<int>(int, int)', function: 'apply' });
    expect(kernelNames('scale')).toEqual({ mangled: 'scale', demangled: 'scale', function: 'scale' });
    expect(kernelNames('_ZN2at6native18elementwise_kernelILi4EEEvi').function).toBe('elementwise_kernel');
  });

  it('matches a name whole and regex: searched, in the name the base names', () => {
    expect(matchKernelNames({ name: 'apply', base: 'function' }, symbols)).toEqual([true, false, false, false]);
    expect(matchKernelNames({ name: 'app', base: 'function' }, symbols)).toEqual([false, false, false, false]);
    expect(matchKernelNames({ name: 'regex:^app', base: 'function' }, symbols)).toEqual([true, true, false, false]);
    expect(matchKernelNames({ name: 'elementwise_kernel', base: 'function' }, symbols)).toEqual([false, false, false, true]);
    expect(matchKernelNames({ name: 'void apply<int>(int, int)', base: 'demangled' }, symbols)).toEqual([true, false, false, false]);
    expect(matchKernelNames({ name: 'regex:at::native', base: 'demangled' }, symbols)).toEqual([false, false, false, true]);
    expect(matchKernelNames({ name: '_Z7applyToi', base: 'mangled' }, symbols)).toEqual([false, true, false, false]);
    expect(matchKernelNames({ name: 'applyTo', base: 'mangled' }, symbols)).toEqual([false, false, false, false]);
  });

  it("refuses a regex: expression std::regex cannot compile, and no other name", () => {
    expect(kernelNameFilterProblem('(literal')).toBeNull();
    expect(kernelNameFilterProblem('regex:(?<=_)scale')).toMatch(/cannot compile it/);
    expect(kernelNameFilterProblem('')).toBe('it is empty');
    expect(() => matchKernelNames({ name: 'regex:(unclosed', base: 'function' }, symbols)).toThrow(/\[native\] \[capture\] --kernel-name regex:\(unclosed cannot be used/);
    expect(() => matchKernelNames({ name: 'scale', base: 'symbol' as never }, symbols)).toThrow(/function, demangled or mangled/);
  });
});

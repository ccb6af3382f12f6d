// A small stand-in for `vitest` on machines that have Node.js but no node_modules (the GPU
// machine): describe/it/hooks with skip, skipIf and it.each, and vitest's own `expect` (@vitest/expect on
// chai). scripts/bundle-gpu-tests.mjs bundles the GPU test files against it; runCollected() runs
// what they registered, in order, and reports. Not a general test runner.
import { chai, JestAsymmetricMatchers, JestChaiExpect, JestExtend, setState } from '@vitest/expect';

chai.use(JestExtend);
chai.use(JestChaiExpect);
chai.use(JestAsymmetricMatchers);

export const expect = (value, message) => chai.expect(value, message);
Object.assign(expect, chai.expect);
setState({ assertionCalls: 0, isExpectingAssertions: false, expectedAssertionsNumber: null, currentTestName: '' }, expect);

function suite(name, skip) {
  return { name, skip, items: [], beforeAll: [], afterAll: [], beforeEach: [], afterEach: [] };
}

const root = suite('', false);
let current = root;

function addSuite(name, body, skip) {
  const child = suite(name, skip);
  current.items.push({ suite: child });
  const parent = current;
  current = child;
  try {
    body();
  } finally {
    current = parent;
  }
}

function addTest(name, body, skip, timeout) {
  current.items.push({ test: { name, body, skip, timeout } });
}

export function describe(name, body) {
  addSuite(name, body, false);
}
describe.skip = (name, body) => addSuite(name, body, true);
describe.skipIf = (condition) => (name, body) => addSuite(name, body, Boolean(condition));
describe.runIf = (condition) => (name, body) => addSuite(name, body, !condition);

export function it(name, body, timeout) {
  addTest(name, body, false, timeout);
}
it.skip = (name, body) => addTest(name, body, true);
it.skipIf = (condition) => (name, body, timeout) => addTest(name, body, Boolean(condition), timeout);
it.runIf = (condition) => (name, body, timeout) => addTest(name, body, !condition, timeout);
/** vitest's printf-like test names: %s, %d, %i and %j take the case's values in order, %% is a %. */
function caseName(name, values) {
  let next = 0;
  return name.replace(/%[sdij%]/g, (token) => {
    if (token === '%%') return '%';
    const value = values[next++];
    return token === '%j' ? JSON.stringify(value) : String(value);
  });
}
it.each = (cases) => (name, body, timeout) => {
  for (const value of cases) {
    const values = Array.isArray(value) ? value : [value];
    addTest(caseName(name, values), () => body(...values), false, timeout);
  }
};
export const test = it;

export const beforeAll = (hook) => current.beforeAll.push(hook);
export const afterAll = (hook) => current.afterAll.push(hook);
export const beforeEach = (hook) => current.beforeEach.push(hook);
export const afterEach = (hook) => current.afterEach.push(hook);

const defaultTimeout = 120_000;

function withTimeout(promise, milliseconds, what) {
  let timer;
  const timeout = new Promise((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} timed out after ${milliseconds} ms`)), milliseconds);
  });
  return Promise.race([Promise.resolve(promise), timeout]).finally(() => clearTimeout(timer));
}

function countTests(node) {
  return node.items.reduce((sum, item) => sum + (item.test ? 1 : countTests(item.suite)), 0);
}

/**
 * Runs everything registered so far; returns { passed, failed, skipped, results }. With
 * KREPLAY_TEST_FILTER set (a regular expression), only tests whose full name matches run.
 */
export async function runCollected({ log = console.log } = {}) {
  const filter = process.env.KREPLAY_TEST_FILTER ? new RegExp(process.env.KREPLAY_TEST_FILTER) : undefined;
  const results = [];
  const run = async (node, path, eachBefore, eachAfter, skipped) => {
    const names = node.name ? [...path, node.name] : path;
    const skip = skipped || node.skip;
    const before = [...eachBefore, ...node.beforeEach];
    const after = [...node.afterEach, ...eachAfter];
    let hookError;
    if (!skip) {
      for (const hook of node.beforeAll) {
        try {
          await withTimeout(hook(), defaultTimeout, 'beforeAll');
        } catch (error) {
          hookError = error;
          break;
        }
      }
    }
    for (const item of node.items) {
      if (item.suite) {
        await run(item.suite, names, before, after, skip || hookError !== undefined);
        continue;
      }
      const name = [...names, item.test.name].join(' > ');
      if (skip || item.test.skip || (filter && !filter.test(name))) {
        results.push({ name, status: 'skipped' });
        continue;
      }
      if (hookError !== undefined) {
        results.push({ name, status: 'failed', error: `beforeAll failed: ${hookError?.stack ?? hookError}` });
        log(`  × ${name}: beforeAll failed`);
        continue;
      }
      const started = performance.now();
      let error;
      try {
        for (const hook of before) await withTimeout(hook(), defaultTimeout, 'beforeEach');
        await withTimeout(item.test.body(), item.test.timeout ?? defaultTimeout, 'the test');
      } catch (caught) {
        error = caught;
      }
      for (const hook of after) {
        try {
          await withTimeout(hook(), defaultTimeout, 'afterEach');
        } catch (caught) {
          error ??= caught;
        }
      }
      const milliseconds = Math.round(performance.now() - started);
      if (error === undefined) {
        results.push({ name, status: 'passed', milliseconds });
        log(`  ✓ ${name} (${milliseconds} ms)`);
      } else {
        results.push({ name, status: 'failed', milliseconds, error: String(error?.stack ?? error) });
        log(`  × ${name} (${milliseconds} ms)\n      ${String(error?.message ?? error).split('\n').join('\n      ')}`);
      }
    }
    if (!skip) {
      for (const hook of node.afterAll) {
        try {
          await withTimeout(hook(), defaultTimeout, 'afterAll');
        } catch (error) {
          log(`  × afterAll of ${names.join(' > ')}: ${error?.message ?? error}`);
        }
      }
    }
  };
  log(`running ${countTests(root)} tests`);
  await run(root, [], [], [], false);
  const count = (status) => results.filter((result) => result.status === status).length;
  const summary = { passed: count('passed'), failed: count('failed'), skipped: count('skipped'), results };
  log(`${summary.passed} passed, ${summary.failed} failed, ${summary.skipped} skipped`);
  return summary;
}

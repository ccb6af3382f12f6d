import { configDefaults, defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    // The raw data holds no tests; leave its folders out of the search.
    exclude: [...configDefaults.exclude, 'results/**'],
    // Generous, as in @kreplay/bench where these tests ran: they spawn shells and Node processes.
    testTimeout: 30_000,
  },
});

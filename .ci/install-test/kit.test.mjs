// Run by .ci/test-install.sh under vitest 4 and vitest 5, where the packed packages are installed:
// the test kits of @kreplay/native and @kreplay/snapshot as a user's test file calls them.
import { openRuntime } from '@kreplay/native';
import { testDriver } from '@kreplay/native/test';
import { fullStrategy } from '@kreplay/snapshot';
import { testSnapshotStrategy } from '@kreplay/snapshot/test';

testDriver({
  name: 'host',
  open: () => openRuntime({ driver: 'host', host: { agents: 2 } }),
  capabilities: { multipleAgents: true },
});
testSnapshotStrategy({ name: 'full', create: ({ tier }) => fullStrategy({ tier }) });

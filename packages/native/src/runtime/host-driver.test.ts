import { openRuntime } from '../index.js';
import { testDriver } from '../test.js';

testDriver({
  name: 'host',
  open: () => openRuntime({ driver: 'host', host: { agents: 2, deviceMemoryBytes: 256 * 2 ** 20 } }),
  capabilities: { multipleAgents: true, faultInjection: true, streamOrderedMemory: true },
});

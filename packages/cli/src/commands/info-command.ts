import { Command } from 'commander';
import { formatBytes, infoResultSchemaId, infoResultVersion } from '@kreplay/bench';
import { openRuntime } from '@kreplay/native';
import type { AgentInfo } from '@kreplay/native';
import type { CliIo } from '../cli-io.js';
import { toOpenRuntimeOptions, withRuntimeOptions } from '../runtime-options.js';
import type { RuntimeCommandOptions } from '../runtime-options.js';

interface InfoOptions extends RuntimeCommandOptions {
  readonly json?: boolean;
}

/** `kreplay info`: the agents of a driver. */
export function infoCommand(io: CliIo): Command {
  return withRuntimeOptions(new Command('info').description('list the agents (devices) a driver sees'))
    .option('--json', 'print one JSON object')
    .action(async (options: InfoOptions) => {
      await using runtime = await openRuntime(toOpenRuntimeOptions(options));
      const agents = runtime.agents.map((agent) => agent.info);
      if (options.json) {
        io.stdout(`${JSON.stringify({ schema: infoResultSchemaId, schemaVersion: infoResultVersion, driver: runtime.driver, versions: runtime.versions, agents })}\n`);
        return;
      }
      io.stdout(`driver ${runtime.driver} (addon ${runtime.versions.addon}, ${runtime.versions.driver})\n`);
      for (const agent of agents) io.stdout(`${describeAgent(agent)}\n`);
    });
}

function describeAgent(agent: AgentInfo): string {
  const link = agent.hostLink ? `, host link ${agent.hostLink.name}` : '';
  return `  agent ${agent.id}: ${agent.name} [${agent.architecture}] ${formatBytes(agent.deviceMemoryBytes)}${link}`;
}

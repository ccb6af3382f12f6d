import { Option } from 'commander';
import type { Command } from 'commander';
import type { DriverChoice, OpenRuntimeOptions } from '@kreplay/native';
import { parseByteSize, parsePositiveInteger } from './byte-size.js';
import { driverOption } from './driver-option.js';

/** The options every command that opens a runtime shares. */
export interface RuntimeCommandOptions {
  readonly driver: DriverChoice;
  readonly agents?: number;
  readonly deviceMemory?: number;
}

/** Adds --driver, --agents and --device-memory to a command. */
export function withRuntimeOptions(command: Command): Command {
  return command
    .addOption(driverOption())
    .addOption(new Option('--agents <n>', 'host driver: how many agents to emulate').argParser(parsePositiveInteger))
    .addOption(
      new Option('--device-memory <bytes>', 'host driver: device memory per agent, e.g. 4GiB').argParser(parseByteSize),
    );
}

/** Turns the shared command options into openRuntime options. */
export function toOpenRuntimeOptions(options: RuntimeCommandOptions): OpenRuntimeOptions {
  return {
    driver: options.driver,
    host: {
      ...(options.agents !== undefined && { agents: options.agents }),
      ...(options.deviceMemory !== undefined && { deviceMemoryBytes: options.deviceMemory }),
    },
  };
}

import { Option } from 'commander';
import type { Command } from 'commander';
import type { DriverChoice, OpenRuntimeOptions } from '@kreplay/native';
import { parseByteSize, parsePositiveInteger } from './byte-size.js';
import { driverOption } from './driver-option.js';
import { wasGiven } from './option-dependencies.js';
import { UsageError } from './usage-error.js';

/** The options every command that opens a runtime shares. */
export interface RuntimeCommandOptions {
  readonly driver: DriverChoice;
  readonly agents?: number;
  readonly deviceMemory?: number;
}

/**
 * Adds --driver, --agents and --device-memory to a command. The host driver's options given with
 * `--driver cuda` or `--driver hsa`, which would ignore them, are a usage error before the action
 * runs (with `auto` the driver is not known yet, and they apply if it turns out to be host).
 */
export function withRuntimeOptions(command: Command): Command {
  return command
    .addOption(driverOption())
    .addOption(new Option('--agents <n>', 'host driver: how many agents to emulate').argParser(parsePositiveInteger))
    .addOption(
      new Option('--device-memory <bytes>', 'host driver: device memory per agent, e.g. 4GiB').argParser(parseByteSize),
    )
    .hook('preAction', (actionCommand) => {
      const driver = (actionCommand.opts() as RuntimeCommandOptions).driver;
      if (driver !== 'cuda' && driver !== 'hsa') return;
      const ignored = ['--agents', '--device-memory'].find((flag) => wasGiven(actionCommand, flag));
      if (ignored !== undefined) {
        throw new UsageError(actionCommand.name(), `${ignored} only applies with the host driver, not --driver ${driver}`, `Leave out ${ignored}, or pass --driver host`);
      }
    });
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

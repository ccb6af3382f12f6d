import type { Command } from 'commander';
import { BenchReportError, ProfileReportError, readReportDocument } from '@kreplay/bench';
import type { ReportDocument } from '@kreplay/bench';

/**
 * Reads a bench report or a profile a command cannot do without: a file that is missing, not JSON,
 * neither kind, or not valid against its schema is unusable input (exit 2, the message as it is).
 * `code` names the error for commander (`kreplay.report.input`).
 */
export async function readInputDocument(command: Command, path: string, code: string): Promise<ReportDocument> {
  try {
    return await readReportDocument(path);
  } catch (error) {
    if (error instanceof BenchReportError || error instanceof ProfileReportError) command.error(`kreplay: ${error.message}`, { exitCode: 2, code });
    throw error;
  }
}

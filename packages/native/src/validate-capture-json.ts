import { captureFolderJsonSchema } from './capture-folder-json-schema.js';
import { jsonSchemaFieldProblem } from './json-schema-problem.js';
import type { JsonFieldProblem } from './json-schema-problem.js';

/** A problem with a capture file: the field's path (`shape.grid[0]`) and what is wrong with it. */
export type CaptureJsonProblem = JsonFieldProblem;

/**
 * The first way `value` breaks the capture folder schema's `file` definition of format `version`, or
 * null when it follows it.
 * @internal
 */
export function captureJsonProblem(file: 'manifest' | 'launch', version: 1 | 2, value: unknown): CaptureJsonProblem | null {
  return jsonSchemaFieldProblem(captureFolderJsonSchema, value, `${file}Version${version}`);
}

import { Ajv } from 'ajv';
import type { ErrorObject, ValidateFunction } from 'ajv';
import { jsonPointerAsPath, shortJson } from '../file-input/json-field-path.js';
import { captureFolderJsonSchema } from './capture-folder-json-schema.js';

/** A problem with a capture file: the field's path (`shape.grid[0]`) and what is wrong with it. */
export interface CaptureJsonProblem {
  readonly field: string;
  readonly problem: string;
}

/** A definition of the capture folder schema, by file and format version. */
type CaptureDefinition = 'manifestVersion1' | 'manifestVersion2' | 'launchVersion1' | 'launchVersion2';

const validators = new Map<CaptureDefinition, ValidateFunction>();
let ajv: Ajv | undefined;

function validator(definition: CaptureDefinition): ValidateFunction {
  let found = validators.get(definition);
  if (!found) {
    if (!ajv) {
      ajv = new Ajv({ allErrors: false, verbose: true });
      ajv.addSchema(captureFolderJsonSchema);
    }
    found = ajv.getSchema(`${captureFolderJsonSchema.$id}#/definitions/${definition}`)!;
    validators.set(definition, found);
  }
  return found;
}

const shown = (value: unknown) => shortJson(value, 48);

function describe(error: ErrorObject): CaptureJsonProblem {
  const field = jsonPointerAsPath(error.instancePath);
  const params = error.params as Record<string, unknown>;
  if (error.keyword === 'required') {
    const missing = String(params['missingProperty']);
    return { field: field === '' ? missing : `${field}.${missing}`, problem: 'is missing' };
  }
  const value = `is ${shown(error.data)}`;
  switch (error.keyword) {
    case 'type':
      return { field, problem: `${value}, not ${String(params['type'])}` };
    case 'const':
      return { field, problem: `${value}, not ${shown(params['allowedValue'])}` };
    case 'enum':
      return { field, problem: `${value}, not one of ${(params['allowedValues'] as unknown[]).map(shown).join(', ')}` };
    case 'minimum':
    case 'maximum':
      return { field, problem: `${value}, ${error.keyword === 'minimum' ? 'below' : 'above'} ${String(params['limit'])}` };
    case 'pattern':
      return { field, problem: `${value}, which does not match ${String(params['pattern'])}` };
    default:
      return { field, problem: `${value}: ${error.message ?? 'invalid'}` };
  }
}

/**
 * The first way `value` breaks the capture folder schema's `file` definition of format `version`, or
 * null when it follows it.
 * @internal
 */
export function captureJsonProblem(file: 'manifest' | 'launch', version: 1 | 2, value: unknown): CaptureJsonProblem | null {
  const validate = validator(`${file}Version${version}`);
  if (validate(value)) return null;
  // A oneOf error is reported after its branches' errors: show the first, most specific one.
  return describe(validate.errors![0]!);
}

import { deviceComparisonJsonSchema } from '../by-device/device-comparison-json-schema.js';
import { benchComparisonJsonSchema } from '../compare/bench-comparison-json-schema.js';
import { profileComparisonJsonSchema } from '../profile/profile-comparison-json-schema.js';
import { profileReportJsonSchema } from '../profile/profile-report-json-schema.js';
import { calibrateResultJsonSchema } from '../result-schemas/calibrate-result-json-schema.js';
import { demoResultJsonSchema } from '../result-schemas/demo-result-json-schema.js';
import { infoResultJsonSchema } from '../result-schemas/info-result-json-schema.js';
import { overheadResultJsonSchema } from '../result-schemas/overhead-result-json-schema.js';
import { captureResultJsonSchema } from '../result-schemas/capture-result-json-schema.js';
import { captureReplayResultJsonSchema } from '../result-schemas/capture-replay-result-json-schema.js';
import { profileMetricListJsonSchema } from '../result-schemas/profile-metric-list-json-schema.js';
import { profileSectionListJsonSchema } from '../result-schemas/profile-section-list-json-schema.js';
import { replayResultJsonSchema } from '../result-schemas/replay-result-json-schema.js';
import { benchReportJsonSchema } from './bench-report-json-schema.js';

/**
 * Every JSON Schema of a kreplay document, with the file it ships as under `schema/` in this
 * package (`@kreplay/bench/schema/<file>`): bench reports and profiles, the comparison of two of
 * either, the by-device comparison, and the JSON of `replay`, `replay --capture`, `calibrate`,
 * `overhead`, `capture`, `info`, `demo` and `profile`'s lists of sections, sets and metrics. `scripts/write-report-schema.mjs` writes the files from these objects;
 * a test checks that they agree.
 */
export const kreplayDocumentSchemas: readonly { readonly file: string; readonly schema: { readonly $id: string } }[] = [
  { file: 'bench-report.schema.json', schema: benchReportJsonSchema },
  { file: 'profile-report.schema.json', schema: profileReportJsonSchema },
  { file: 'profile-comparison.schema.json', schema: profileComparisonJsonSchema },
  { file: 'replay-result.schema.json', schema: replayResultJsonSchema },
  { file: 'capture-replay-result.schema.json', schema: captureReplayResultJsonSchema },
  { file: 'calibrate-result.schema.json', schema: calibrateResultJsonSchema },
  { file: 'overhead-result.schema.json', schema: overheadResultJsonSchema },
  { file: 'capture-result.schema.json', schema: captureResultJsonSchema },
  { file: 'bench-comparison.schema.json', schema: benchComparisonJsonSchema },
  { file: 'device-comparison.schema.json', schema: deviceComparisonJsonSchema },
  { file: 'info-result.schema.json', schema: infoResultJsonSchema },
  { file: 'demo-result.schema.json', schema: demoResultJsonSchema },
  { file: 'profile-section-list.schema.json', schema: profileSectionListJsonSchema },
  { file: 'profile-metric-list.schema.json', schema: profileMetricListJsonSchema },
];

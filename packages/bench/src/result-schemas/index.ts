export { replayResultJsonSchema, replayResultSchemaId, replayResultVersion } from './replay-result-json-schema.js';
export { captureReplayResultJsonSchema, captureReplayResultSchemaId, captureReplayResultVersion } from './capture-replay-result-json-schema.js';
export { calibrateResultJsonSchema, calibrateResultSchemaId, calibrateResultVersion } from './calibrate-result-json-schema.js';
export { overheadResultJsonSchema, overheadResultSchemaId, overheadResultVersion } from './overhead-result-json-schema.js';
export { captureResultJsonSchema, captureResultSchemaId, captureResultVersion } from './capture-result-json-schema.js';
export { infoResultJsonSchema, infoResultSchemaId, infoResultVersion } from './info-result-json-schema.js';
export { demoResultJsonSchema, demoResultSchemaId, demoResultVersion } from './demo-result-json-schema.js';

export { compareByDevice, deviceComparisonSchemaId, deviceComparisonVersion } from './device-comparison.js';
export { deviceComparisonJsonSchema } from './device-comparison-json-schema.js';
export type { ComparedDevice, DeviceCell, DeviceComparison, DeviceComparisonRow, SourcedReport } from './device-comparison.js';
export { formatDeviceComparison } from './format-device-comparison.js';
export { renderDeviceComparisonHtml } from './render-device-comparison-html.js';

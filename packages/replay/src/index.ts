/**
 * @kreplay/replay — the replay window (quiesce, lock, capture, passes, restore, verify, decline)
 * and pass providers.
 */
export { createReplayEngine } from './replay-engine.js';
export type { ReplayEngine } from './replay-engine.js';
export type { QuiesceMode, ReplayEngineOptions } from './engine-options.js';
export type { DispatchRequest, EngineDispatchRequest, GraphDispatchRequest } from './dispatch-request.js';
export type { DispatchResult, DispatchTimings } from './dispatch-result.js';
export type { RangeDispatch, RangeRequest } from './range-request.js';
export type { RangeDispatchResult, RangeResult } from './range-result.js';
export type { DispatchFailure, ErrorSummary, FailurePhase, MemoryState } from './dispatch-failure.js';
export type { DeclineCode } from './decline.js';
export type { RangeMismatch, VerifyMode, VerificationReport, VerificationStatus } from './verification-report.js';
export { verificationPageBytes } from './verification-plan.js';
export { passProviderSpecificationVersion } from './pass-provider.js';
export type { PassProvider, PassScope } from './pass-provider.js';
export { fixedPasses } from './fixed-passes.js';
export { timingPasses } from './timing-passes.js';
export type { PassTimings, TimingPassProvider } from './timing-passes.js';
export { cuptiPasses } from './cupti-passes.js';
export type { CuptiCollected, CuptiPassesOptions, CuptiPassProvider } from './cupti-passes.js';
export { defaultProfileConditions, profileConditions } from './profile-conditions.js';
export type { ProfileConditions, ProfileConditionsInput } from './profile-conditions.js';
export { ReplayPluginError } from './replay-plugin-error.js';
export type { PluginIdentity } from './run-plugin-hook.js';

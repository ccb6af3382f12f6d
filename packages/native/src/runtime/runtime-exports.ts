/**
 * The runtime's objects as the package exports them: each name is both the interface of
 * runtime-objects.ts (the type users write) and the class that implements it (the value, for
 * `instanceof`; its constructor is internal). TypeScript lets an interface and a value share a
 * name only when both are declared in one module, hence the empty interfaces here.
 */
import { CheckpointSessionHandle, CheckpointsHandle } from '../memory/checkpoint.js';
import { KernelGraphHandle } from '../kernels/kernel-graph.js';
import { ProfilerSessionHandle, ProfilersHandle } from '../profiler/profiler.js';
import { QueueHandle } from '../queue/queue.js';
import { TimingEventHandle } from '../queue/timing-event.js';
import { AgentHandle } from './agent.js';
import { RuntimeHandle } from './runtime.js';
import type * as Objects from './runtime-objects.js';

export interface Runtime extends Objects.Runtime {}
export const Runtime = RuntimeHandle;
export interface Agent extends Objects.Agent {}
export const Agent = AgentHandle;
export interface Queue extends Objects.Queue {}
export const Queue = QueueHandle;
export interface KernelGraph extends Objects.KernelGraph {}
export const KernelGraph = KernelGraphHandle;
export interface TimingEvent extends Objects.TimingEvent {}
export const TimingEvent = TimingEventHandle;
export interface Checkpoints extends Objects.Checkpoints {}
export const Checkpoints = CheckpointsHandle;
export interface CheckpointSession extends Objects.CheckpointSession {}
export const CheckpointSession = CheckpointSessionHandle;
export interface Profilers extends Objects.Profilers {}
export const Profilers = ProfilersHandle;
export interface ProfilerSession extends Objects.ProfilerSession {}
export const ProfilerSession = ProfilerSessionHandle;
